import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.rerollKey → 404', () => {
  const h = useHarness();

  test('an unknown keyId → 404 key_not_found, even for a root key without create_key', async () => {
    const res = await h.call('keys.rerollKey', { keyId: 'key_doesnotexist', expiration: 0 });
    expectError(res, 404, 'unkey/data/key_not_found');
    expect(res.body.error.detail).toBe('The specified key was not found.');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.rerollKey', { keyId: 'key_doesnotexist', expiration: 0 }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('a deleted key cannot be rerolled', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    await h.call('keys.deleteKey', { keyId });
    expectError(await h.call('keys.rerollKey', { keyId, expiration: 0 }), 404, 'unkey/data/key_not_found');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.rerollKey', { keyId, expiration: 0 }), 404, 'unkey/data/key_not_found');
    expect((await h.verify(key)).body.data.code).toBe('NOT_FOUND');
  });
});
