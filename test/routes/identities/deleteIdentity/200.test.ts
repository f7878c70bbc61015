import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DAY = 86_400_000;

describe('identities.deleteIdentity → 200', () => {
  const h = useHarness();

  test('the answer has meta and no data field; the identity is gone', async () => {
    const identityId = await h.createIdentity({ externalId: 'doomed' });
    const res = await h.call('identities.deleteIdentity', { identity: identityId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body).toEqual({ meta: { requestId: expect.stringMatching(/^req_/) } });
    expect('data' in res.body).toBe(false);
    expectError(await h.call('identities.getIdentity', { identity: identityId }), 404, 'unkey/data/identity_not_found');
    expect(await h.keygate.services.storage.identities.get(identityId)).toBeNull();
  });

  test('by externalId', async () => {
    const identityId = await h.createIdentity({ externalId: 'by-external' });
    expect((await h.call('identities.deleteIdentity', { identity: 'by-external' })).status).toBe(200);
    expect(await h.keygate.services.storage.identities.get(identityId)).toBeNull();
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'by-external')).toBeNull();
  });

  test('an id match is preferred: the identity with that id is deleted, not the one with that externalId', async () => {
    const first = await h.createIdentity({ externalId: 'first' });
    const second = await h.createIdentity({ externalId: first });
    expect((await h.call('identities.deleteIdentity', { identity: first })).status).toBe(200);
    expect(await h.keygate.services.storage.identities.get(first)).toBeNull();
    expect(await h.keygate.services.storage.identities.get(second)).not.toBeNull();
  });

  test('linked keys still verify VALID, without identity and without the identity limits', async () => {
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'org-gone', meta: { tier: 'gold' }, ratelimits: [{ name: 'org-requests', limit: 1, duration: DAY, autoApply: true }] });
    const { key, keyId } = await h.createKey({ apiId, externalId: 'org-gone' });
    const before = await h.verify(key);
    expect(before.body.data).toMatchObject({ valid: true, code: 'VALID', identity: { externalId: 'org-gone', meta: { tier: 'gold' } } });
    expect((await h.verify(key)).body.data.code).toBe('RATE_LIMITED');

    expect((await h.call('identities.deleteIdentity', { identity: 'org-gone' })).status).toBe(200);

    for (let i = 0; i < 3; i++) {
      const res = await h.verify(key);
      expect(res.body.data).toMatchObject({ valid: true, code: 'VALID', keyId });
      expect(res.body.data.identity).toBeUndefined();
      expect(res.body.data.ratelimits).toBeUndefined();
    }
  });

  test('the externalId can be created again, with a new id; old keys are not re-linked', async () => {
    const apiId = await h.createApi();
    const oldId = await h.createIdentity({ externalId: 'reborn' });
    const { key: oldKey } = await h.createKey({ apiId, externalId: 'reborn' });
    expect((await h.call('identities.deleteIdentity', { identity: oldId })).status).toBe(200);

    const created = await h.call('identities.createIdentity', { externalId: 'reborn', meta: { generation: 2 } });
    expect(created.status).toBe(200);
    const newId = created.body.data.identityId;
    expect(newId).not.toBe(oldId);
    expect((await h.call('identities.getIdentity', { identity: 'reborn' })).body.data).toEqual({ id: newId, externalId: 'reborn', meta: { generation: 2 } });
    expect((await h.verify(oldKey)).body.data.identity).toBeUndefined();

    const { key: newKey } = await h.createKey({ apiId, externalId: 'reborn' });
    expect((await h.verify(newKey)).body.data.identity).toEqual({ id: newId, externalId: 'reborn', meta: { generation: 2 } });
  });

  test('keys.createKey with a deleted externalId creates a fresh identity', async () => {
    const apiId = await h.createApi();
    const oldId = await h.createIdentity({ externalId: 'upserted-again' });
    expect((await h.call('identities.deleteIdentity', { identity: 'upserted-again' })).status).toBe(200);
    const { key } = await h.createKey({ apiId, externalId: 'upserted-again' });
    const identity = (await h.verify(key)).body.data.identity;
    expect(identity.externalId).toBe('upserted-again');
    expect(identity.id).not.toBe(oldId);
  });

  test('identity.*.delete_identity alone is enough', async () => {
    const identityId = await h.createIdentity({ externalId: 'by-deleter' });
    const key = await h.rootKey(['identity.*.delete_identity']);
    const res = await h.call('identities.deleteIdentity', { identity: identityId }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeUndefined();
  });

  test('concurrent deletes of one identity: exactly one succeeds, the others get 404', async () => {
    const identityId = await h.createIdentity({ externalId: 'racy' });
    const results = await Promise.all(Array.from({ length: 8 }, () => h.call('identities.deleteIdentity', { identity: identityId })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(7);
  });
});
