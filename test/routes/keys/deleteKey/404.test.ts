import { describe, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.deleteKey → 404', () => {
  const h = useHarness();

  test('an unknown keyId → 404 key_not_found, even for a root key without delete_key', async () => {
    expectError(await h.call('keys.deleteKey', { keyId: 'key_doesnotexist' }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.deleteKey', { keyId: 'key_doesnotexist' }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('deleting a key twice → 404 the second time', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    await h.call('keys.deleteKey', { keyId });
    expectError(await h.call('keys.deleteKey', { keyId }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.deleteKey', { keyId, permanent: true }), 404, 'unkey/data/key_not_found');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.deleteKey', { keyId }), 404, 'unkey/data/key_not_found');
  });
});
