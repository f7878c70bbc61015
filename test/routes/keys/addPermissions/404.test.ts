import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addPermissions → 404', () => {
  const h = useHarness();
  const findSlug = (slug: string) => h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, slug);

  test('an unknown keyId → key_not_found, even for a root key without update_key; nothing is created', async () => {
    const res = await h.call('keys.addPermissions', { keyId: 'key_doesnotexist', permissions: ['orphan.one'] });
    expectError(res, 404, 'unkey/data/key_not_found');
    expect(res.body.error.detail).toBe('We could not find the requested key.');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.addPermissions', { keyId: 'key_doesnotexist', permissions: ['orphan.one'] }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
    expect(await findSlug('orphan.one')).toBeNull();
  });

  test('a deleted key and a key of a deleted API are not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('keys.deleteKey', { keyId })).status).toBe(200);
    expectError(await h.call('keys.addPermissions', { keyId, permissions: ['orphan.two'] }), 404, 'unkey/data/key_not_found');

    const other = await h.createApi();
    const second = await h.createKey({ apiId: other });
    expect((await h.call('apis.deleteApi', { apiId: other })).status).toBe(200);
    expectError(await h.call('keys.addPermissions', { keyId: second.keyId, permissions: ['orphan.two'] }), 404, 'unkey/data/key_not_found');
    expect(await findSlug('orphan.two')).toBeNull();
  });
});
