import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.getApi → 403', () => {
  const h = useHarness();
  let apiId: string | undefined;
  const body = async () => {
    apiId ??= await h.createApi('guarded');
    return { apiId };
  };

  describeForbiddenCase(h, 'apis.getApi', body, 'api.*.read_api', ['api.*.create_api']);

  test('the detail names both the wildcard and the concrete-id tuple', async () => {
    const { apiId: id } = await body();
    const key = await h.rootKey(['api.*.create_api', 'api.*.update_api']);
    const res = await h.call('apis.getApi', { apiId: id }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toContain('api.*.read_api');
    expect(res.body.error.detail).toContain(`api.${id}.read_api`);
  });

  test('a root key scoped to one API reads it but is forbidden on another', async () => {
    const mine = await h.createApi('mine');
    const other = await h.createApi('other');
    const key = await h.rootKey([`api.${mine}.read_api`]);

    const allowed = await h.call('apis.getApi', { apiId: mine }, { rootKey: key });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toEqual({ id: mine, name: 'mine' });

    const denied = await h.call('apis.getApi', { apiId: other }, { rootKey: key });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.error.detail).toContain(`api.${other}.read_api`);
    expect(denied.body.error.detail).toContain('api.*.read_api');
    expect(denied.body.data).toBeUndefined();
  });

  test('another action on the same API (update_api) does not grant read', async () => {
    const { apiId: id } = await body();
    const key = await h.rootKey([`api.${id}.update_api`]);
    const res = await h.call('apis.getApi', { apiId: id }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });

  test('permission is checked before the lookup: an unknown API gives 403, not 404, without the permission', async () => {
    const key = await h.rootKey(['api.*.create_api']);
    const res = await h.call('apis.getApi', { apiId: 'api_doesnotexist000' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.api_doesnotexist000.read_api');
  });
});
