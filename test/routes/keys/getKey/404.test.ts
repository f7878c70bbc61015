import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.getKey → 404', () => {
  const h = useHarness();

  test('an unknown keyId → 404 key_not_found', async () => {
    const res = await h.call('keys.getKey', { keyId: 'key_doesnotexist' });
    expectError(res, 404, 'unkey/data/key_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('We could not find the requested key.');
  });

  test('the lookup comes before the permission check: a root key without read_key gets 404 for a missing key', async () => {
    const weak = await h.rootKey(['api.*.verify_key']);
    expectError(await h.call('keys.getKey', { keyId: 'key_doesnotexist' }, { rootKey: weak }), 404, 'unkey/data/key_not_found');
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('keys.getKey', { keyId })).status).toBe(200);
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.getKey', { keyId }), 404, 'unkey/data/key_not_found');
  });

  test('ids are case-sensitive', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const changed = keyId.replace(/^key_/, 'KEY_');
    expectError(await h.call('keys.getKey', { keyId: changed }), 404, 'unkey/data/key_not_found');
  });
});
