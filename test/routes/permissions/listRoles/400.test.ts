import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.listRoles' failed to validate schema";

describe('permissions.listRoles → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('limit 0 is rejected at /properties/limit/minimum', async () => {
    const res = await h.call('permissions.listRoles', { limit: 0 });
    expectInvalid(res, '/properties/limit/minimum');
  });

  test('limit 101 is rejected at /properties/limit/maximum', async () => {
    const res = await h.call('permissions.listRoles', { limit: 101 });
    expectInvalid(res, '/properties/limit/maximum');
  });

  test('a non-integer limit is rejected', async () => {
    const res = await h.call('permissions.listRoles', { limit: 1.5 });
    expectInvalid(res, '/properties/limit/type');
  });

  test('a search of 257 characters is rejected', async () => {
    const res = await h.call('permissions.listRoles', { search: 's'.repeat(257) });
    expectInvalid(res, '/properties/search/maxLength');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.listRoles', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.listRoles', { limit: 0 }, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
