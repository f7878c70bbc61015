import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.deleteApi → 404', () => {
  const h = useHarness();

  test('an unknown API → 404 api_not_found', async () => {
    const res = await h.call('apis.deleteApi', { apiId: 'api_doesnotexist000' });
    expectError(res, 404, 'unkey/data/api_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('The requested API does not exist or has been deleted.');
  });

  test('not idempotent: deleting an already deleted API → 404, and deletedAt is unchanged', async () => {
    const apiId = await h.createApi('twice');
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    const deletedAt = (await h.keygate.services.storage.apis.get(apiId))?.deletedAt;
    expect(deletedAt).toBeDefined();
    const again = await h.call('apis.deleteApi', { apiId });
    expectError(again, 404, 'unkey/data/api_not_found');
    expect((await h.keygate.services.storage.apis.get(apiId))?.deletedAt).toBe(deletedAt);
  });

  test('a root key scoped to the unknown id gets 404 (the permission passes, the lookup fails)', async () => {
    const key = await h.rootKey(['api.api_doesnotexist111.delete_api']);
    expectError(await h.call('apis.deleteApi', { apiId: 'api_doesnotexist111' }, { rootKey: key }), 404, 'unkey/data/api_not_found');
  });
});
