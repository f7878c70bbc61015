import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.deleteApi → 200', () => {
  const h = useHarness();

  test('deletes the API: data is {}, then getApi answers 404', async () => {
    const apiId = await h.createApi('doomed');
    const res = await h.call('apis.deleteApi', { apiId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body).toEqual({ meta: { requestId: res.body.meta.requestId }, data: {} });

    expectError(await h.call('apis.getApi', { apiId }), 404, 'unkey/data/api_not_found');
  });

  test('it is a soft delete: the record stays, with deletedAt set', async () => {
    const apiId = await h.createApi('soft');
    const before = Date.now();
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    const record = await h.keygate.services.storage.apis.get(apiId);
    expect(record?.name).toBe('soft');
    expect(record?.deletedAt).toBeGreaterThanOrEqual(before);
    expect(record?.deletedAt).toBeLessThanOrEqual(Date.now());
  });

  test('the keys of a deleted API verify as NOT_FOUND; keys of other APIs still verify', async () => {
    const apiId = await h.createApi('with-keys');
    const other = await h.createApi('bystander');
    const { key } = await h.createKey({ apiId, externalId: 'deleted-api-owner' });
    const { key: otherKey } = await h.createKey({ apiId: other });
    expect((await h.verify(key)).body.data.code).toBe('VALID');

    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);

    const res = await h.verify(key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect((await h.verify(otherKey)).body.data).toMatchObject({ valid: true, code: 'VALID' });
    expect((await h.call('apis.getApi', { apiId: other })).status).toBe(200);
  });

  test('no new keys can be created on a deleted API', async () => {
    const apiId = await h.createApi('closed');
    expect((await h.call('apis.deleteApi', { apiId })).status).toBe(200);
    expectError(await h.call('keys.createKey', { apiId }), 404, 'unkey/data/api_not_found');
  });

  test('api.*.delete_api alone is enough', async () => {
    const apiId = await h.createApi('wildcard-delete');
    const key = await h.rootKey(['api.*.delete_api']);
    const res = await h.call('apis.deleteApi', { apiId }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({});
  });

  test('a root key scoped to api.<apiId>.delete_api deletes that API', async () => {
    const apiId = await h.createApi('scoped-delete');
    const key = await h.rootKey([`api.${apiId}.delete_api`]);
    expect((await h.call('apis.deleteApi', { apiId }, { rootKey: key })).status).toBe(200);
    expect((await h.keygate.services.storage.apis.get(apiId))?.deletedAt).toBeDefined();
  });

  test('concurrent deletes of one API: exactly one succeeds, the others get 404', async () => {
    const apiId = await h.createApi('racy');
    const results = await Promise.all(Array.from({ length: 8 }, () => h.call('apis.deleteApi', { apiId })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(7);
  });
});
