import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createPermission → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.createPermission', () => ({ name: 'Read', slug: 'docs.read' }), 'rbac.*.create_permission', ['rbac.*.read_permission', 'rbac.*.create_role']);

  test('nothing is created without the permission', async () => {
    const key = await h.rootKey(['rbac.*.read_permission']);
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'forbidden.slug' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'forbidden.slug')).toBeNull();
  });

  test('rbac.*.create_permission alone is enough', async () => {
    const key = await h.rootKey(['rbac.*.create_permission']);
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'allowed.slug' }, { rootKey: key });
    expect(res.status).toBe(200);
  });
});
