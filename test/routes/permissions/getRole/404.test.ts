import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getRole → 404', () => {
  const h = useHarness();

  test('an unknown name', async () => {
    const res = await h.call('permissions.getRole', { role: 'nobody' });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('The requested role does not exist.');
  });

  test('an unknown id', async () => {
    expectError(await h.call('permissions.getRole', { role: 'role_doesnotexist000' }), 404, 'unkey/data/role_not_found');
  });

  test('a deleted role', async () => {
    await h.call('permissions.createRole', { name: 'fleeting' });
    expect((await h.call('permissions.deleteRole', { role: 'fleeting' })).status).toBe(200);
    expectError(await h.call('permissions.getRole', { role: 'fleeting' }), 404, 'unkey/data/role_not_found');
  });
});
