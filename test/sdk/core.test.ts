import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { waitForWindowRoom } from '../support/time.js';
import { sdkFor } from './support.js';

describe('the official SDK against keygate: core procedures', () => {
  const h = useHarness();

  test('create an API, an identity with a shared limit, keys; verify until RATE_LIMITED', async () => {
    await waitForWindowRoom(60_000, 10_000);
    const unkey = sdkFor(h);
    const { data: api } = await unkey.apis.createApi({ name: 'sdk-api' });
    expect(api.apiId).toMatch(/^api_/);
    expect((await unkey.apis.getApi({ apiId: api.apiId })).data).toEqual({ id: api.apiId, name: 'sdk-api' });

    const { data: identity } = await unkey.identities.createIdentity({
      externalId: 'sdk_user',
      meta: { plan: 'pro' },
      ratelimits: [{ name: 'requests', limit: 2, duration: 60_000, autoApply: true }],
    });
    expect(identity.identityId).toMatch(/^id_/);

    const a = (await unkey.keys.createKey({ apiId: api.apiId, prefix: 'sdk', externalId: 'sdk_user', credits: { remaining: 5 } })).data;
    const b = (await unkey.keys.createKey({ apiId: api.apiId, externalId: 'sdk_user', meta: { team: 'red' }, name: 'second' })).data;
    expect(a.key.startsWith('sdk_')).toBe(true);

    const first = (await unkey.keys.verifyKey({ key: a.key })).data;
    expect(first).toMatchObject({ valid: true, code: 'VALID', keyId: a.keyId, credits: 4, identity: { externalId: 'sdk_user', meta: { plan: 'pro' } } });
    expect(first.ratelimits?.[0]).toMatchObject({ name: 'requests', remaining: 1, exceeded: false, autoApply: true });
    const second = (await unkey.keys.verifyKey({ key: b.key })).data;
    expect(second).toMatchObject({ valid: true, name: 'second', meta: { team: 'red' } });
    const third = (await unkey.keys.verifyKey({ key: a.key })).data;
    expect(third).toMatchObject({ valid: false, code: 'RATE_LIMITED', credits: 4 });
    expect((await unkey.keys.verifyKey({ key: 'sdk_unknown' })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  test('ratelimit.limit through the SDK', async () => {
    const unkey = sdkFor(h);
    const r1 = (await unkey.ratelimit.limit({ namespace: 'sdk-ns', identifier: 'ip_1', limit: 1, duration: 60_000 })).data;
    expect(r1).toMatchObject({ success: true, limit: 1, remaining: 0 });
    const r2 = (await unkey.ratelimit.limit({ namespace: 'sdk-ns', identifier: 'ip_1', limit: 1, duration: 60_000 })).data;
    expect(r2).toMatchObject({ success: false, remaining: 0 });
    expect(r2.reset).toBe((Math.floor(Date.now() / 60_000) + 1) * 60_000);
  });

  test('errors arrive as the SDK error classes, with keygate envelopes', async () => {
    const unkey = sdkFor(h);
    const unauthorized = sdkFor(h, 'kgroot_not_a_root_key');
    await expect(unauthorized.apis.createApi({ name: 'nope' })).rejects.toBeInstanceOf(errors.UnauthorizedErrorResponse);

    const limited = sdkFor(h, await h.rootKey(['api.*.read_api']));
    const forbidden = await limited.apis.createApi({ name: 'nope' }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.create_api');

    const missing = await unkey.apis.getApi({ apiId: 'api_00000000' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missing as errors.NotFoundErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/data/api_not_found');

    await unkey.identities.createIdentity({ externalId: 'sdk_dup' });
    await expect(unkey.identities.createIdentity({ externalId: 'sdk_dup' })).rejects.toBeInstanceOf(errors.ConflictErrorResponse);

    const { data: key } = await unkey.keys.createKey({ apiId: (await unkey.apis.createApi({ name: 'sdk-412' })).data.apiId });
    const precondition = await unkey.keys.verifyKey({ key: key.key, ratelimits: [{ name: 'tokens' }] }).catch((e: unknown) => e);
    // The SDK declares no 412 for verifyKey (nor does Unkey's spec), so it surfaces as APIError.
    expect(precondition).toBeInstanceOf(errors.APIError);
    expect((precondition as errors.APIError).statusCode).toBe(412);
    expect(JSON.parse((precondition as errors.APIError).body).error.type).toBe('https://unkey.com/docs/errors/unkey/application/precondition_failed');

    const badQuery = await unkey.keys.verifyKey({ key: key.key, permissions: 'a AND' }).catch((e: unknown) => e);
    expect(badQuery).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect((badQuery as errors.BadRequestErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/user/bad_request/permissions_query_syntax_error');
  });
});
