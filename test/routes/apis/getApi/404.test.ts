import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.getApi → 404', () => {
  const h = useHarness();

  test('an unknown but well-formed apiId → 404 api_not_found', async () => {
    const res = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' });
    expectError(res, 404, 'unkey/data/api_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('The requested API does not exist or has been deleted.');
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
  });

  test('a root key scoped to the unknown id gets 404 (the permission passes, the lookup fails)', async () => {
    const key = await h.rootKey(['api.api_doesnotexist111.read_api']);
    const res = await h.call('apis.getApi', { apiId: 'api_doesnotexist111' }, { rootKey: key });
    expectError(res, 404, 'unkey/data/api_not_found');
  });

  test('ids are case-sensitive: an existing id with its case changed is not found', async () => {
    const apiId = await h.createApi('case');
    const changed = apiId.replace(/^api_/, 'API_');
    expect(changed).not.toBe(apiId);
    const res = await h.call('apis.getApi', { apiId: changed });
    expectError(res, 404, 'unkey/data/api_not_found');
  });
});
