import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/identities.updateIdentity' failed to validate schema";

describe('identities.updateIdentity → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('duplicate rate-limit names in the request → 400 naming the duplicate, and nothing changes', async () => {
    const identityId = await h.createIdentity({ externalId: 'dupes', meta: { a: 1 }, ratelimits: [{ name: 'requests', limit: 1, duration: 1000, autoApply: true }] });
    const before = await h.keygate.services.storage.identities.get(identityId);
    const res = await h.call('identities.updateIdentity', {
      identity: identityId,
      meta: { a: 2 },
      ratelimits: [
        { name: 'requests', limit: 5, duration: 1000, autoApply: true },
        { name: 'tokens', limit: 5, duration: 1000, autoApply: true },
        { name: 'requests', limit: 9, duration: 1000, autoApply: false },
      ],
    });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe("Ratelimit with name 'requests' is already defined in the request");
    expect(res.body.error.errors).toEqual([]);
    expect(await h.keygate.services.storage.identities.get(identityId)).toEqual(before);
  });

  test('meta null is rejected (meta can be replaced or kept, not nulled)', async () => {
    await h.createIdentity({ externalId: 'null-meta' });
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'null-meta', meta: null }), '/properties/meta/type');
  });

  test('ratelimits null is rejected', async () => {
    await h.createIdentity({ externalId: 'null-limits' });
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'null-limits', ratelimits: null }), '/properties/ratelimits/type');
  });

  test('meta with more than 100 properties is rejected', async () => {
    const meta = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'any', meta }), '/properties/meta/maxProperties');
  });

  test('more than 50 ratelimits are rejected', async () => {
    const ratelimits = Array.from({ length: 51 }, (_, i) => ({ name: `limit-${i}`, limit: 1, duration: 1000, autoApply: false }));
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'any', ratelimits }), '/properties/ratelimits/maxItems');
  });

  test('a ratelimit without duration, or with an autoApply that is not a boolean, is rejected', async () => {
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'any', ratelimits: [{ name: 'requests', limit: 1 }] }),
      '/properties/ratelimits/items/required');
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'any', ratelimits: [{ name: 'requests', limit: 1, duration: 1000, autoApply: 'yes' }] }),
      '/properties/ratelimits/items/properties/autoApply/type');
  });

  test('a missing or empty identity is rejected', async () => {
    expectInvalid(await h.call('identities.updateIdentity', { meta: {} }), '/required');
    expectInvalid(await h.call('identities.updateIdentity', { identity: '' }), '/properties/identity/minLength');
  });

  test('an unknown property is rejected (the body is strict)', async () => {
    await h.createIdentity({ externalId: 'strict' });
    expectInvalid(await h.call('identities.updateIdentity', { identity: 'strict', externalId: 'renamed' }), '/additionalProperties');
  });
});
