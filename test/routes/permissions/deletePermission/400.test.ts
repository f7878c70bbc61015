import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.deletePermission' failed to validate schema";

describe('permissions.deletePermission → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a missing permission is rejected at /required', async () => {
    const res = await h.call('permissions.deletePermission', {});
    expectInvalid(res, '/required');
  });

  test('a permission of 129 characters is rejected at /properties/permission/maxLength', async () => {
    const res = await h.call('permissions.deletePermission', { permission: 'p'.repeat(129) });
    expectInvalid(res, '/properties/permission/maxLength');
  });

  test('a permission with a space is rejected at /properties/permission/pattern', async () => {
    const res = await h.call('permissions.deletePermission', { permission: 'a b' });
    expectInvalid(res, '/properties/permission/pattern');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.deletePermission', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.deletePermission', {}, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
