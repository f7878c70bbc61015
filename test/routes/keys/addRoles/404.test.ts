import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addRoles → 404', () => {
  const h = useHarness();

  test('an unknown keyId → key_not_found, even for a root key without update_key', async () => {
    expectError(await h.call('keys.addRoles', { keyId: 'key_doesnotexist', roles: ['admin'] }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.addRoles', { keyId: 'key_doesnotexist', roles: ['admin'] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('an unknown role → role_not_found naming it; no role of the request is attached', async () => {
    expect((await h.call('permissions.createRole', { name: 'ar_real', permissions: ['ar.real'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.addRoles', { keyId, roles: ['ar_real', 'ar_ghost'] });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'ar_ghost' was not found.");
    expect((await h.call('keys.getKey', { keyId })).body.data).not.toHaveProperty('roles');
    expect((await h.verify(key, { permissions: 'ar.real' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('a role id is not a name: roles are referenced by name only', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'ar_by_name' })).body.data.roleId;
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.addRoles', { keyId, roles: [roleId] });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe(`Role '${roleId}' was not found.`);
  });
});
