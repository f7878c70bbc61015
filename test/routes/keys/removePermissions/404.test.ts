import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removePermissions → 404', () => {
  const h = useHarness();

  test('an unknown keyId → key_not_found, even for a root key without update_key', async () => {
    expectError(await h.call('keys.removePermissions', { keyId: 'key_doesnotexist', permissions: ['a.b'] }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.removePermissions', { keyId: 'key_doesnotexist', permissions: ['a.b'] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('an unknown slug → permission_not_found naming it; nothing is removed', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['rm.read', 'rm.write'] });
    const res = await h.call('keys.removePermissions', { keyId, permissions: ['rm.read', 'rm.Unknown'] });
    expectError(res, 404, 'unkey/data/permission_not_found');
    expect(res.body.error.detail).toBe("Permission 'rm.Unknown' was not found.");
    expect((await h.verify(key, { permissions: 'rm.read AND rm.write' })).body.data.code).toBe('VALID');
    expect([...(await h.call('keys.getKey', { keyId })).body.data.permissions].sort()).toEqual(['rm.read', 'rm.write']);
  });

  test('a permission id is not a slug: removal is by slug only, as in Unkey', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['by.slug'] });
    const permissionId = (await h.call('permissions.getPermission', { permission: 'by.slug' })).body.data.id;
    const res = await h.call('keys.removePermissions', { keyId, permissions: [permissionId] });
    expectError(res, 404, 'unkey/data/permission_not_found');
    expect((await h.call('keys.getKey', { keyId })).body.data.permissions).toEqual(['by.slug']);
  });
});
