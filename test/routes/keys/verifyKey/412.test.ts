import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.verifyKey → 412', () => {
  const h = useHarness();

  test('a limit name the key does not have, and no identity → 412 naming it', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.verify(key, { ratelimits: [{ name: 'tokens' }] });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.title).toBe('Precondition Failed');
    expect(res.body.error.detail).toBe(`ratelimit 'tokens' was requested but does not exist for key '${keyId}' and there is no identity connected.`);
  });

  test('a name neither the key nor its identity has → 412 naming both', async () => {
    const identityId = await h.createIdentity({ externalId: 'user_412', ratelimits: [{ name: 'requests', limit: 5, duration: 60_000, autoApply: false }] });
    const { key } = await h.createKey({ apiId: await h.createApi(), externalId: 'user_412' });
    const res = await h.verify(key, { ratelimits: [{ name: 'requests' }, { name: 'tokens', cost: 2 }] });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.detail).toContain(`identity: '${identityId}' external ID: 'user_412'`);
    // Nothing was consumed by the rejected call: the identity's limit still has all 5.
    const read = await h.verify(key, { ratelimits: [{ name: 'requests', cost: 0 }] });
    expect(read.body.data.ratelimits[0]).toMatchObject({ name: 'requests', remaining: 5 });
  });

  test('a partial inline pair (limit without duration) is a name reference → 412', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi() });
    expect((await h.verify(key, { ratelimits: [{ name: 'adhoc', limit: 5 }] })).status).toBe(412);
  });
});
