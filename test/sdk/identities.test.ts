import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const MINUTE = 60_000;
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);
const errorOf = (e: unknown) => (e as errors.NotFoundErrorResponse).data$.error;
/** The error envelope of an APIError: the SDK's generic class for statuses it does not parse. */
function envelopeOf(e: unknown): { status: number; type: string; detail: string } {
  expect(e).toBeInstanceOf(errors.APIError);
  expect((e as errors.APIError).contentType).toMatch(/^application\/json/);
  const { error } = JSON.parse((e as errors.APIError).body);
  expect(error.status).toBe((e as errors.APIError).statusCode);
  return error;
}

describe('the official SDK against keygate: identities', () => {
  const h = useHarness();

  test('getIdentity by id or externalId; 404 before 403; a tuple naming the identity suffices', async () => {
    const unkey = sdkFor(h);
    const { identityId } = (await unkey.identities.createIdentity({
      externalId: 'get_user', meta: { plan: 'pro', seats: 3 },
      ratelimits: [{ name: 'requests', limit: 10, duration: MINUTE, autoApply: true }],
    })).data;

    const byId = (await unkey.identities.getIdentity({ identity: identityId })).data;
    expect(byId).toMatchObject({
      id: identityId, externalId: 'get_user', meta: { plan: 'pro', seats: 3 },
      ratelimits: [{ name: 'requests', limit: 10, duration: MINUTE, autoApply: true }],
    });
    expect(byId.ratelimits![0]!.id).toMatch(/^rl_/);
    expect((await unkey.identities.getIdentity({ identity: 'get_user' })).data).toEqual(byId);
    const bare = (await unkey.identities.createIdentity({ externalId: 'get_bare' })).data.identityId;
    expect((await unkey.identities.getIdentity({ identity: bare })).data).toEqual({ id: bare, externalId: 'get_bare' });

    const missing = await rejection(unkey.identities.getIdentity({ identity: 'get_nobody' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing)).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/identity_not_found`, detail: 'This identity does not exist.' });

    const stranger = sdkFor(h, await h.rootKey(['identity.*.create_identity']));
    expect(await rejection(stranger.identities.getIdentity({ identity: 'get_nobody' }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    const forbidden = await rejection(stranger.identities.getIdentity({ identity: 'get_user' }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain('identity.*.read_identity');

    const scoped = sdkFor(h, await h.rootKey([`identity.${identityId}.read_identity`]));
    expect((await scoped.identities.getIdentity({ identity: 'get_user' })).data.id).toBe(identityId);
    expect(await rejection(scoped.identities.getIdentity({ identity: bare }))).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(await rejection(unkey.identities.getIdentity({ identity: '' }))).toBeInstanceOf(errors.BadRequestErrorResponse);

    // An id wins over an externalId that happens to spell it.
    const lookalike = (await unkey.identities.createIdentity({ externalId: identityId })).data.identityId;
    expect((await unkey.identities.getIdentity({ identity: identityId })).data.externalId).toBe('get_user');
    expect((await unkey.identities.getIdentity({ identity: lookalike })).data.externalId).toBe(identityId);
  });

  test('listIdentities pages in id order, searches case-insensitively and checks each returned identity', async () => {
    const unkey = sdkFor(h);
    const ids: string[] = [];
    for (const name of ['Team_Alpha', 'team_beta', 'TEAM_gamma', 'team_delta', 'solo_eps']) {
      ids.push((await unkey.identities.createIdentity({ externalId: `list.${name}`, meta: { name } })).data.identityId);
    }
    const sorted = [...ids].sort();

    const first = await unkey.identities.listIdentities({ limit: 2, search: 'list.' });
    expect(first.result.data.map((i) => i.id)).toEqual(sorted.slice(0, 2));
    expect(first.result.pagination).toEqual({ hasMore: true, cursor: sorted[2] });
    const seen: string[] = [];
    for await (const page of await unkey.identities.listIdentities({ limit: 2, search: 'list.' })) seen.push(...page.result.data.map((i) => i.id));
    expect(seen).toEqual(sorted);
    const last = await unkey.identities.listIdentities({ limit: 2, search: 'list.', cursor: sorted[4]! });
    expect(last.result).toMatchObject({ data: [{ id: sorted[4] }], pagination: { hasMore: false } });

    const team = (await unkey.identities.listIdentities({ search: '  TEAM_  ' })).result.data;
    expect(team.map((i) => i.externalId).sort()).toEqual(['list.TEAM_gamma', 'list.Team_Alpha', 'list.team_beta', 'list.team_delta']);
    const alpha = team.find((i) => i.externalId === 'list.Team_Alpha')!;
    expect(alpha).toEqual((await unkey.identities.getIdentity({ identity: alpha.id })).data);
    expect((await unkey.identities.listIdentities({ search: ids[4]!.slice(3).toLowerCase() })).result.data.map((i) => i.id)).toContain(ids[4]);

    // One identity the root key may not read fails the page; a page without any needs no permission.
    const scoped = sdkFor(h, await h.rootKey([`identity.${ids[4]}.read_identity`]));
    expect((await scoped.identities.listIdentities({ search: 'solo_eps' })).result.data.map((i) => i.id)).toEqual([ids[4]]);
    const forbidden = await rejection(scoped.identities.listIdentities({ search: 'list.' }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain('identity.*.read_identity');
    expect((await sdkFor(h, await h.rootKey([])).identities.listIdentities({ search: 'no-such-identity' })).result)
      .toMatchObject({ data: [], pagination: { hasMore: false } });

    expect(await rejection(unkey.identities.listIdentities({ limit: 101 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.identities.listIdentities({ cursor: 'c'.repeat(1025) }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('updateIdentity replaces meta and limits (a kept name keeps its id) and echoes the request meta', async () => {
    const unkey = sdkFor(h);
    const { identityId } = (await unkey.identities.createIdentity({
      externalId: 'upd_ident', meta: { v: 1 },
      ratelimits: [{ name: 'keep', limit: 1, duration: MINUTE }, { name: 'drop', limit: 2, duration: MINUTE }],
    })).data;
    const keepId = (await unkey.identities.getIdentity({ identity: identityId })).data.ratelimits!.find((r) => r.name === 'keep')!.id;

    const updated = (await unkey.identities.updateIdentity({
      identity: 'upd_ident', meta: { v: 2, tier: 'gold' },
      ratelimits: [{ name: 'keep', limit: 5, duration: 2 * MINUTE, autoApply: true }, { name: 'added', limit: 9, duration: MINUTE }],
    })).data;
    expect(updated).toMatchObject({ id: identityId, externalId: 'upd_ident', meta: { v: 2, tier: 'gold' } });
    expect(updated.ratelimits).toHaveLength(2);
    expect(updated.ratelimits).toContainEqual({ id: keepId, name: 'keep', limit: 5, duration: 2 * MINUTE, autoApply: true });
    expect(updated.ratelimits!.find((r) => r.name === 'added')).toMatchObject({ limit: 9, duration: MINUTE, autoApply: false });
    expect((await unkey.identities.getIdentity({ identity: identityId })).data).toEqual(updated);

    // Without meta, the answer has none, but the stored meta is kept; without ratelimits they are kept.
    const limitsOnly = (await unkey.identities.updateIdentity({ identity: identityId, ratelimits: [] })).data;
    expect(limitsOnly).toEqual({ id: identityId, externalId: 'upd_ident' });
    const stored = (await unkey.identities.getIdentity({ identity: identityId })).data;
    expect(stored).toEqual({ id: identityId, externalId: 'upd_ident', meta: { v: 2, tier: 'gold' } });
    await unkey.identities.updateIdentity({ identity: identityId, ratelimits: [{ name: 'kept', limit: 4, duration: MINUTE }] });
    const metaOnly = (await unkey.identities.updateIdentity({ identity: identityId, meta: { v: 3 } })).data;
    expect(metaOnly).toMatchObject({ id: identityId, externalId: 'upd_ident', meta: { v: 3 }, ratelimits: [{ name: 'kept', limit: 4, duration: MINUTE, autoApply: false }] });
    await unkey.identities.updateIdentity({ identity: identityId, ratelimits: [] });

    // Keys see the identity's new settings at once.
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-ident-keys' })).data;
    const { key } = (await unkey.keys.createKey({ apiId, externalId: 'upd_ident' })).data;
    expect((await unkey.keys.verifyKey({ key })).data.identity).toEqual({ id: identityId, externalId: 'upd_ident', meta: { v: 3 } });
  });

  test('updateIdentity errors: 403 first, 404 for an unknown identity, 400 for a duplicate limit name', async () => {
    const unkey = sdkFor(h);
    await unkey.identities.createIdentity({ externalId: 'upd_err', meta: { a: 1 } });

    const reader = sdkFor(h, await h.rootKey(['identity.*.read_identity']));
    for (const identity of ['upd_err', 'upd_nobody']) {
      const forbidden = await rejection(reader.identities.updateIdentity({ identity, meta: { a: 2 } }));
      expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
      expect(errorOf(forbidden).detail).toContain('identity.*.update_identity');
    }
    const missing = await rejection(unkey.identities.updateIdentity({ identity: 'upd_nobody', meta: { a: 2 } }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing).type).toBe(`${DOCS}/unkey/data/identity_not_found`);

    const duplicate = await rejection(unkey.identities.updateIdentity({
      identity: 'upd_err', ratelimits: [{ name: 'same', limit: 1, duration: MINUTE }, { name: 'same', limit: 2, duration: MINUTE }],
    }));
    expect(duplicate).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(errorOf(duplicate).detail).toBe("Ratelimit with name 'same' is already defined in the request");
    expect((await unkey.identities.getIdentity({ identity: 'upd_err' })).data).toMatchObject({ meta: { a: 1 } });
    expect((await unkey.identities.getIdentity({ identity: 'upd_err' })).data).not.toHaveProperty('ratelimits');
  });

  test('deleteIdentity by externalId or id: no data; keys lose it; the externalId is free again; 403 first, then 404', async () => {
    const unkey = sdkFor(h);
    const { identityId } = (await unkey.identities.createIdentity({ externalId: 'del_ident', meta: { x: 1 }, ratelimits: [{ name: 'per_ident', limit: 1, duration: MINUTE, autoApply: true }] })).data;
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-ident-delete' })).data;
    const { key, keyId } = (await unkey.keys.createKey({ apiId, externalId: 'del_ident' })).data;

    // The SDK declares deleteIdentity's errors as application/problem+json but asks for plain JSON
    // (as Unkey answers it too), so they surface as APIError carrying keygate's envelope.
    const forbidden = await rejection(sdkFor(h, await h.rootKey(['identity.*.update_identity'])).identities.deleteIdentity({ identity: 'del_ident' }));
    expect(envelopeOf(forbidden)).toMatchObject({ status: 403, type: `${DOCS}/forbidden` });
    expect(envelopeOf(forbidden).detail).toContain('identity.*.delete_identity');
    expect((await unkey.identities.getIdentity({ identity: identityId })).data.id).toBe(identityId);

    const deleted = await unkey.identities.deleteIdentity({ identity: 'del_ident' });
    expect(deleted.meta.requestId).toBeTruthy();
    expect(deleted).not.toHaveProperty('data');
    expect(await rejection(unkey.identities.getIdentity({ identity: identityId }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('identity');
    // The identity's auto-applied limit went with it: the key verifies without it, twice.
    for (let i = 0; i < 2; i++) {
      const verified = (await unkey.keys.verifyKey({ key })).data;
      expect(verified).toMatchObject({ valid: true, code: 'VALID' });
      expect(verified).not.toHaveProperty('identity');
      expect(verified).not.toHaveProperty('ratelimits');
    }
    const again = await rejection(unkey.identities.deleteIdentity({ identity: 'del_ident' }));
    expect(envelopeOf(again)).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/identity_not_found` });

    const reborn = (await unkey.identities.createIdentity({ externalId: 'del_ident' })).data.identityId;
    expect(reborn).not.toBe(identityId);
    // The old keys are not linked to the new identity of the same externalId.
    expect((await unkey.apis.listKeys({ apiId, externalId: 'del_ident' })).result.data).toEqual([]);
    expect((await unkey.keys.verifyKey({ key })).data).not.toHaveProperty('identity');
    expect((await unkey.identities.deleteIdentity({ identity: reborn })).meta.requestId).toBeTruthy();
    expect(await rejection(unkey.identities.getIdentity({ identity: 'del_ident' }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(envelopeOf(await rejection(unkey.identities.deleteIdentity({ identity: '' })))).toMatchObject({ status: 400, type: `${DOCS}/unkey/application/invalid_input` });
  });
});
