import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.deleteApi → 403', () => {
  const h = useHarness();
  const body = async () => ({ apiId: await h.createApi('guarded') });

  describeForbiddenCase(h, 'apis.deleteApi', body, 'api.*.delete_api', ['api.*.read_api', 'api.*.create_api']);

  test('the detail names both tuples, and a forbidden call deletes nothing', async () => {
    const { apiId } = await body();
    const key = await h.rootKey(['api.*.read_api', `api.${apiId}.update_api`]);
    const res = await h.call('apis.deleteApi', { apiId }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.delete_api' or 'api.${apiId}.delete_api'.`);
    expect((await h.keygate.services.storage.apis.get(apiId))?.deletedAt).toBeUndefined();
    expect((await h.call('apis.getApi', { apiId })).status).toBe(200);
  });

  test('a root key scoped to one API cannot delete another', async () => {
    const mine = await h.createApi('mine');
    const other = await h.createApi('other');
    const key = await h.rootKey([`api.${mine}.delete_api`]);
    const denied = await h.call('apis.deleteApi', { apiId: other }, { rootKey: key });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.error.detail).toContain(`api.${other}.delete_api`);
    expect((await h.call('apis.getApi', { apiId: other })).status).toBe(200);
    expect((await h.call('apis.deleteApi', { apiId: mine }, { rootKey: key })).status).toBe(200);
  });

  test('permission is checked before the lookup: an unknown API gives 403 without the permission', async () => {
    const key = await h.rootKey(['api.*.read_api']);
    const res = await h.call('apis.deleteApi', { apiId: 'api_doesnotexist000' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.api_doesnotexist000.delete_api');
  });

  test('an already deleted API still gives 403 without the permission', async () => {
    const { apiId } = await body();
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    const key = await h.rootKey(['api.*.read_api']);
    expectError(await h.call('apis.deleteApi', { apiId }, { rootKey: key }), 403, 'forbidden');
  });
});
