import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listKeys → 404', () => {
  const h = useHarness();

  test('an unknown API → 404 api_not_found', async () => {
    const res = await h.call('apis.listKeys', { apiId: 'api_doesnotexist000' });
    expectError(res, 404, 'unkey/data/api_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('The requested API does not exist or has been deleted.');
    expect(res.body.pagination).toBeUndefined();
  });

  test('any non-empty apiId is looked up, a very long one included', async () => {
    expectError(await h.call('apis.listKeys', { apiId: 'x' }), 404, 'unkey/data/api_not_found');
    expectError(await h.call('apis.listKeys', { apiId: 'a-b c' }), 404, 'unkey/data/api_not_found');
    expectError(await h.call('apis.listKeys', { apiId: 'a'.repeat(5000) }), 404, 'unkey/data/api_not_found');
  });

  test('a deleted API → 404, although its keys are still stored', async () => {
    const apiId = await h.createApi('gone');
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('apis.listKeys', { apiId })).body.data).toHaveLength(1);
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    expectError(await h.call('apis.listKeys', { apiId }), 404, 'unkey/data/api_not_found');
    expect(await h.keygate.services.storage.keys.get(keyId)).not.toBeNull();
  });

  test('a root key scoped to the unknown id gets 404 (the permissions pass, the lookup fails)', async () => {
    const key = await h.rootKey(['api.api_doesnotexist111.read_key', 'api.api_doesnotexist111.read_api']);
    expectError(await h.call('apis.listKeys', { apiId: 'api_doesnotexist111' }, { rootKey: key }), 404, 'unkey/data/api_not_found');
  });
});
