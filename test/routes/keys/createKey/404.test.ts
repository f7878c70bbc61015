import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.createKey → 404', () => {
  const h = useHarness();

  test('an unknown API → 404 api_not_found', async () => {
    const res = await h.call('keys.createKey', { apiId: 'api_doesnotexist' });
    expectError(res, 404, 'unkey/data/api_not_found');
    expect(res.body.error.detail).toBe('The requested API does not exist or has been deleted.');
  });

  test('an unknown role → 404 role_not_found, and no key is created', async () => {
    const apiId = await h.createApi();
    const res = await h.call('keys.createKey', { apiId, roles: ['admin'], externalId: 'role_probe' });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'admin' was not found.");
  });
});
