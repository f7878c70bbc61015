import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setRoles → 404', () => {
  const h = useHarness();

  test('an unknown keyId → key_not_found, even for a root key without update_key', async () => {
    expectError(await h.call('keys.setRoles', { keyId: 'key_doesnotexist', roles: [] }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.setRoles', { keyId: 'key_doesnotexist', roles: [] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('an unknown role → role_not_found naming it; the key keeps its roles', async () => {
    expect((await h.call('permissions.createRole', { name: 'sr_before', permissions: ['sr.before'] })).status).toBe(200);
    expect((await h.call('permissions.createRole', { name: 'sr_after' })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_before'] });
    const res = await h.call('keys.setRoles', { keyId, roles: ['sr_after', 'sr_ghost'] });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'sr_ghost' was not found.");
    expect((await h.call('keys.getKey', { keyId })).body.data.roles).toEqual(['sr_before']);
    expect((await h.verify(key, { permissions: 'sr.before' })).body.data.code).toBe('VALID');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    expectError(await h.call('keys.setRoles', { keyId, roles: [] }), 404, 'unkey/data/key_not_found');
  });
});
