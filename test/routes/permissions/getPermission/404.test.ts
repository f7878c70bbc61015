import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getPermission → 404', () => {
  const h = useHarness();

  test('an unknown slug', async () => {
    const res = await h.call('permissions.getPermission', { permission: 'never.created' });
    expectError(res, 404, 'unkey/data/permission_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('The requested permission does not exist.');
  });

  test('an unknown id', async () => {
    const res = await h.call('permissions.getPermission', { permission: 'perm_doesnotexist000' });
    expectError(res, 404, 'unkey/data/permission_not_found');
  });

  test('a deleted permission', async () => {
    await h.call('permissions.createPermission', { name: 'gone', slug: 'gone.soon' });
    expect((await h.call('permissions.deletePermission', { permission: 'gone.soon' })).status).toBe(200);
    const res = await h.call('permissions.getPermission', { permission: 'gone.soon' });
    expectError(res, 404, 'unkey/data/permission_not_found');
  });
});
