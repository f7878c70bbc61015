import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateKey → 404', () => {
  const h = useHarness();

  test('an unknown keyId → 404 key_not_found, even for a root key without update_key', async () => {
    const res = await h.call('keys.updateKey', { keyId: 'key_doesnotexist', name: 'x' });
    expectError(res, 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.updateKey', { keyId: 'key_doesnotexist', name: 'x' }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.updateKey', { keyId, name: 'x' }), 404, 'unkey/data/key_not_found');
  });

  test('an unknown role → 404 role_not_found, and nothing else is changed or created', async () => {
    expect((await h.call('permissions.createRole', { name: 'upd_known' })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), name: 'before' });
    const res = await h.call('keys.updateKey', {
      keyId, name: 'after', enabled: false, externalId: 'upd_role_probe', roles: ['upd_known', 'admin'], permissions: ['upd.never.created'],
    });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'admin' was not found.");
    const data = (await h.call('keys.getKey', { keyId })).body.data;
    expect(data).toMatchObject({ name: 'before', enabled: true });
    expect(data).not.toHaveProperty('roles');
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    const storage = h.keygate.services.storage;
    expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'upd_role_probe')).toBeNull();
    expect(await storage.permissions.findBySlug(WORKSPACE_ID, 'upd.never.created')).toBeNull();
  });
});
