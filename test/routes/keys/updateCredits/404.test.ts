import { describe, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateCredits → 404', () => {
  const h = useHarness();

  test('an unknown keyId → 404 key_not_found, before the permission and operation rules', async () => {
    expectError(await h.call('keys.updateCredits', { keyId: 'key_doesnotexist', operation: 'set', value: 1 }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.updateCredits', { keyId: 'key_doesnotexist', operation: 'increment' }), 404, 'unkey/data/key_not_found');
    const weak = await h.rootKey(['api.*.read_key']);
    expectError(await h.call('keys.updateCredits', { keyId: 'key_doesnotexist', operation: 'set', value: 1 }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('a keyId that fails the other key procedures\' pattern is accepted here, and simply not found', async () => {
    expectError(await h.call('keys.updateCredits', { keyId: 'key-with-dashes', operation: 'set', value: 1 }), 404, 'unkey/data/key_not_found');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId, credits: { remaining: 1 } });
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.updateCredits', { keyId, operation: 'increment', value: 1 }), 404, 'unkey/data/key_not_found');
  });
});
