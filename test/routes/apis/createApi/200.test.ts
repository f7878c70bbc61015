import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('apis.createApi → 200', () => {
  const h = useHarness();

  test('creates an API that getApi then returns', async () => {
    const res = await h.call('apis.createApi', { name: 'payments' });
    expect(res.status).toBe(200);
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    const apiId = res.body.data.apiId;
    expect(apiId).toMatch(/^api_[1-9A-HJ-NP-Za-km-z]+$/);

    const got = await h.call('apis.getApi', { apiId });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ id: apiId, name: 'payments' });
  });

  test('names are not unique: two APIs with one name get two ids', async () => {
    const a = await h.createApi('same');
    const b = await h.createApi('same');
    expect(a).not.toBe(b);
  });

  test('api.*.create_api alone is enough', async () => {
    const key = await h.rootKey(['api.*.create_api']);
    const res = await h.call('apis.createApi', { name: 'scoped' }, { rootKey: key });
    expect(res.status).toBe(200);
  });
});
