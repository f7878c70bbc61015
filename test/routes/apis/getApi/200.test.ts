import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('apis.getApi → 200', () => {
  const h = useHarness();

  test('returns the id and name the API was created with', async () => {
    const apiId = await h.createApi('billing');
    const res = await h.call('apis.getApi', { apiId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body.data).toEqual({ id: apiId, name: 'billing' });
  });

  test('two APIs are returned independently', async () => {
    const a = await h.createApi('first-api');
    const b = await h.createApi('second-api');
    expect((await h.call('apis.getApi', { apiId: a })).body.data).toEqual({ id: a, name: 'first-api' });
    expect((await h.call('apis.getApi', { apiId: b })).body.data).toEqual({ id: b, name: 'second-api' });
  });

  test('api.*.read_api alone is enough', async () => {
    const apiId = await h.createApi('wildcard-read');
    const key = await h.rootKey(['api.*.read_api']);
    const res = await h.call('apis.getApi', { apiId }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: apiId, name: 'wildcard-read' });
  });

  test('a root key scoped to api.<apiId>.read_api reads that API', async () => {
    const apiId = await h.createApi('scoped-read');
    const key = await h.rootKey([`api.${apiId}.read_api`]);
    const res = await h.call('apis.getApi', { apiId }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: apiId, name: 'scoped-read' });
  });
});
