import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.getPermission' failed to validate schema";

describe('permissions.getPermission → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a missing permission is rejected at /required', async () => {
    const res = await h.call('permissions.getPermission', {});
    expectInvalid(res, '/required');
  });

  test('an empty permission is rejected at /properties/permission/minLength', async () => {
    const res = await h.call('permissions.getPermission', { permission: '' });
    expectInvalid(res, '/properties/permission/minLength');
  });

  test('a permission with a slash is rejected at /properties/permission/pattern', async () => {
    const res = await h.call('permissions.getPermission', { permission: 'a/b' });
    expectInvalid(res, '/properties/permission/pattern');
  });

  test('unknown properties are rejected', async () => {
    const res = await h.call('permissions.getPermission', { permission: 'a', slug: 'a' });
    expectInvalid(res, '/additionalProperties');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.getPermission', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.getPermission', {}, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
