import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createPermission → 409', () => {
  const h = useHarness();

  test('a taken slug is a conflict and the first permission is untouched', async () => {
    const first = await h.call('permissions.createPermission', { name: 'First', slug: 'billing.read' });
    expect(first.status).toBe(200);
    const res = await h.call('permissions.createPermission', { name: 'Second', slug: 'billing.read' });
    expectError(res, 409, 'unkey/data/permission_already_exists');
    expect(res.body.error.title).toBe('Conflicting Resource');
    expect(res.body.error.detail).toBe("A permission with slug 'billing.read' already exists in this workspace");
    const got = await h.call('permissions.getPermission', { permission: 'billing.read' });
    expect(got.body.data).toEqual({ id: first.body.data.permissionId, name: 'First', slug: 'billing.read' });
  });

  test('slugs collide case-insensitively (Admin vs admin)', async () => {
    expect((await h.call('permissions.createPermission', { name: 'a', slug: 'admin' })).status).toBe(200);
    const res = await h.call('permissions.createPermission', { name: 'b', slug: 'Admin' });
    expectError(res, 409, 'unkey/data/permission_already_exists');
  });

  test('a slug auto-created by createKey is taken too', async () => {
    const apiId = await h.createApi();
    await h.createKey({ apiId, permissions: ['auto.made'] });
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'auto.made' });
    expectError(res, 409, 'unkey/data/permission_already_exists');
  });
});
