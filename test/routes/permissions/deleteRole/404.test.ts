import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deleteRole → 404', () => {
  const h = useHarness();

  test('an unknown role', async () => {
    const res = await h.call('permissions.deleteRole', { role: 'nobody' });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe('The requested role does not exist.');
  });

  test('deleting twice: the second is a 404', async () => {
    await h.call('permissions.createRole', { name: 'twice' });
    expect((await h.call('permissions.deleteRole', { role: 'twice' })).status).toBe(200);
    expectError(await h.call('permissions.deleteRole', { role: 'twice' }), 404, 'unkey/data/role_not_found');
  });
});
