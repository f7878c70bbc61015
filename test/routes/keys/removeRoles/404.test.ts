import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removeRoles → 404', () => {
  const h = useHarness();

  test('an unknown keyId → key_not_found, even for a root key without update_key', async () => {
    expectError(await h.call('keys.removeRoles', { keyId: 'key_doesnotexist', roles: ['admin'] }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.removeRoles', { keyId: 'key_doesnotexist', roles: ['admin'] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('an unknown role → role_not_found naming it; no role of the request is removed', async () => {
    expect((await h.call('permissions.createRole', { name: 'rr_real', permissions: ['rr.real'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['rr_real'] });
    const res = await h.call('keys.removeRoles', { keyId, roles: ['rr_real', 'rr_ghost'] });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'rr_ghost' was not found.");
    expect((await h.call('keys.getKey', { keyId })).body.data.roles).toEqual(['rr_real']);
    expect((await h.verify(key, { permissions: 'rr.real' })).body.data.code).toBe('VALID');
  });

  test('a deleted role is unknown: removing it is a 404 (the key already lost it)', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'rr_deleted' })).body.data.roleId;
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['rr_deleted'] });
    expect((await h.call('permissions.deleteRole', { role: roleId })).status).toBe(200);
    expectError(await h.call('keys.removeRoles', { keyId, roles: ['rr_deleted'] }), 404, 'unkey/data/role_not_found');
    expect((await h.call('keys.getKey', { keyId })).body.data).not.toHaveProperty('roles');
  });
});
