import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deletePermission → 404', () => {
  const h = useHarness();

  test('an unknown slug', async () => {
    const res = await h.call('permissions.deletePermission', { permission: 'never.created' });
    expectError(res, 404, 'unkey/data/permission_not_found');
    expect(res.body.error.detail).toBe('The requested permission does not exist.');
  });

  test('deleting twice: the second is a 404', async () => {
    await h.call('permissions.createPermission', { name: 'x', slug: 'twice' });
    expect((await h.call('permissions.deletePermission', { permission: 'twice' })).status).toBe(200);
    expectError(await h.call('permissions.deletePermission', { permission: 'twice' }), 404, 'unkey/data/permission_not_found');
  });
});
