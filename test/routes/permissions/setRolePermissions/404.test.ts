import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.setRolePermissions → 404', () => {
  const h = useHarness();

  test('an unknown role id; no permission is created', async () => {
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_doesnotexist000', permissions: ['orphan.slug'] });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe('The requested role does not exist.');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'orphan.slug')).toBeNull();
  });

  test('a role name is not resolved: only the id is accepted', async () => {
    await h.call('permissions.createRole', { name: 'named-role' });
    expectError(await h.call('permissions.setRolePermissions', { roleId: 'named-role', permissions: [] }), 404, 'unkey/data/role_not_found');
  });
});
