import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createRole → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.createRole', () => ({ name: 'editor' }), 'rbac.*.create_role', ['rbac.*.read_role', 'rbac.*.create_permission']);

  test('a role with permissions also needs rbac.*.add_permission_to_role; nothing is created', async () => {
    await h.call('permissions.createPermission', { name: 'x', slug: 'existing.slug' });
    const key = await h.rootKey(['rbac.*.create_role']);
    const res = await h.call('permissions.createRole', { name: 'needs-add', permissions: ['existing.slug'] }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('rbac.*.add_permission_to_role');
    expect(await h.keygate.services.storage.roles.findByName(WORKSPACE_ID, 'needs-add')).toBeNull();
  });

  test('creating a missing slug also needs rbac.*.create_permission; nothing is created', async () => {
    const key = await h.rootKey(['rbac.*.create_role', 'rbac.*.add_permission_to_role']);
    const res = await h.call('permissions.createRole', { name: 'needs-create', permissions: ['brand.new.slug'] }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('rbac.*.create_permission');
    expect(await h.keygate.services.storage.roles.findByName(WORKSPACE_ID, 'needs-create')).toBeNull();
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'brand.new.slug')).toBeNull();
  });

  test('existing slugs need no create_permission', async () => {
    await h.call('permissions.createPermission', { name: 'x', slug: 'already.there' });
    const key = await h.rootKey(['rbac.*.create_role', 'rbac.*.add_permission_to_role']);
    const res = await h.call('permissions.createRole', { name: 'no-create-needed', permissions: ['already.there'] }, { rootKey: key });
    expect(res.status).toBe(200);
  });
});
