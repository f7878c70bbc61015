import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setPermissions → 404', () => {
  const h = useHarness();

  test('an unknown keyId → key_not_found, even for a weak root key; no permission is created', async () => {
    const res = await h.call('keys.setPermissions', { keyId: 'key_doesnotexist', permissions: ['set.orphan'] });
    expectError(res, 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.setPermissions', { keyId: 'key_doesnotexist', permissions: [] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'set.orphan')).toBeNull();
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    expectError(await h.call('keys.setPermissions', { keyId, permissions: [] }), 404, 'unkey/data/key_not_found');
  });
});
