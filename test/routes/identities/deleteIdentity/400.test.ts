import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/identities.deleteIdentity' failed to validate schema";

describe('identities.deleteIdentity → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a missing identity is rejected with a fix naming it', async () => {
    const res = await h.call('identities.deleteIdentity', {});
    expectInvalid(res, '/required');
    expect(res.body.error.errors.find((e: any) => e.location === '/required').fix).toContain('identity');
  });

  test('an empty identity is rejected', async () => {
    expectInvalid(await h.call('identities.deleteIdentity', { identity: '' }), '/properties/identity/minLength');
  });

  test('an identity that is not a string is rejected', async () => {
    expectInvalid(await h.call('identities.deleteIdentity', { identity: ['a'] }), '/properties/identity/type');
  });

  test('an unknown property is rejected and nothing is deleted', async () => {
    const identityId = await h.createIdentity({ externalId: 'strict' });
    expectInvalid(await h.call('identities.deleteIdentity', { identity: identityId, permanent: true }), '/additionalProperties');
    expect(await h.keygate.services.storage.identities.get(identityId)).not.toBeNull();
  });
});
