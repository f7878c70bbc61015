import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.setRolePermissions → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.setRolePermissions', () => ({ roleId: 'role_unknown000', permissions: [] }), 'rbac.*.add_permission_to_role', ['rbac.*.read_role']);

  test('add_permission_to_role alone is not enough: remove_permission_from_role is named', async () => {
    const key = await h.rootKey(['rbac.*.add_permission_to_role']);
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_unknown000', permissions: [] }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('rbac.*.remove_permission_from_role');
  });

  test('checked before the lookup: an unknown role gives 403, not 404', async () => {
    const key = await h.rootKey(['rbac.*.remove_permission_from_role']);
    const res = await h.call('permissions.setRolePermissions', { roleId: 'role_unknown000', permissions: [] }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });

  test('creating a missing slug also needs rbac.*.create_permission; the role is unchanged', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'stable', permissions: ['kept.slug'] })).body.data.roleId;
    const key = await h.rootKey(['rbac.*.add_permission_to_role', 'rbac.*.remove_permission_from_role']);
    const res = await h.call('permissions.setRolePermissions', { roleId, permissions: ['unheard.of'] }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('rbac.*.create_permission');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'unheard.of')).toBeNull();
    const role = (await h.call('permissions.getRole', { role: roleId })).body.data;
    expect(role.permissions.map((p: any) => p.slug)).toEqual(['kept.slug']);
  });
});
