import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.listPermissions' failed to validate schema";

describe('permissions.listPermissions → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('limit 0 is rejected at /properties/limit/minimum', async () => {
    const res = await h.call('permissions.listPermissions', { limit: 0 });
    expectInvalid(res, '/properties/limit/minimum');
  });

  test('limit 101 is rejected at /properties/limit/maximum', async () => {
    const res = await h.call('permissions.listPermissions', { limit: 101 });
    expectInvalid(res, '/properties/limit/maximum');
  });

  test('a cursor of 1025 characters is rejected', async () => {
    const res = await h.call('permissions.listPermissions', { cursor: 'c'.repeat(1025) });
    expectInvalid(res, '/properties/cursor/maxLength');
  });

  test('a search of 257 characters is rejected', async () => {
    const res = await h.call('permissions.listPermissions', { search: 's'.repeat(257) });
    expectInvalid(res, '/properties/search/maxLength');
  });

  test('unknown properties are rejected', async () => {
    const res = await h.call('permissions.listPermissions', { page: 2 });
    expectInvalid(res, '/additionalProperties');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.listPermissions', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.listPermissions', { limit: 0 }, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
