import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deletePermission → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.deletePermission', () => ({ permission: 'docs.read' }), 'rbac.*.delete_permission', ['rbac.*.read_permission', 'rbac.*.create_permission']);

  test('the permission survives a forbidden delete', async () => {
    await h.call('permissions.createPermission', { name: 'keep', slug: 'keep.me' });
    const key = await h.rootKey(['rbac.*.delete_role']);
    const res = await h.call('permissions.deletePermission', { permission: 'keep.me' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'keep.me')).not.toBeNull();
  });

  test('checked before the lookup: an unknown permission gives 403, not 404', async () => {
    const key = await h.rootKey(['rbac.*.read_permission']);
    const res = await h.call('permissions.deletePermission', { permission: 'does.not.exist' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
