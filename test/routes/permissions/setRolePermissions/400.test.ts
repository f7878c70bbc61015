import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.setRolePermissions' failed to validate schema";

describe('permissions.setRolePermissions → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a missing permissions array is rejected at /required', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_abc' });
    expectInvalid(res, '/required');
  });

  test('a roleId of 2 characters is rejected at /properties/roleId/minLength', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'ro', permissions: [] });
    expectInvalid(res, '/properties/roleId/minLength');
  });

  test('a roleId with a space is rejected at /properties/roleId/pattern', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role abc', permissions: [] });
    expectInvalid(res, '/properties/roleId/pattern');
  });

  test('a permission slug with a slash is rejected', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_abc', permissions: ['a/b'] });
    expectInvalid(res, '/properties/permissions/items/pattern');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.setRolePermissions', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_abc' }, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
