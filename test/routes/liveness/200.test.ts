import { describe, expect, test } from 'vitest';
import { callKeygate, useHarness } from '../../support/harness.js';

describe('liveness → 200', () => {
  const h = useHarness();

  test('GET /v2/liveness answers 200 without a root key', async () => {
    const res = await callKeygate(h.url, '/v2/liveness', undefined, { method: 'GET' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body.data).toEqual({ message: "we're cooking" });
    expect(res.body.error).toBeUndefined();
  });

  test('an invalid Authorization header does not matter to liveness', async () => {
    const res = await callKeygate(h.url, '/v2/liveness', undefined, { method: 'GET', rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(200);
    expect(res.body.data.message).toBe("we're cooking");
  });

  test('plain fetch with default headers works (load balancers and probes)', async () => {
    const res = await fetch(`${h.url}/v2/liveness`);
    expect(res.status).toBe(200);
    const body = await res.json() as { meta: { requestId: string }; data: { message: string } };
    expect(body.data.message).toBe("we're cooking");
    expect(res.headers.get('x-request-id')).toBe(body.meta.requestId);
  });

  test('each call gets its own request id', async () => {
    const a = await callKeygate(h.url, '/v2/liveness', undefined, { method: 'GET' });
    const b = await callKeygate(h.url, '/v2/liveness', undefined, { method: 'GET' });
    expect(a.body.meta.requestId).not.toBe(b.body.meta.requestId);
  });

  test('PUT /v2/liveness → 405 with an Allow header listing GET', async () => {
    const res = await callKeygate(h.url, '/v2/liveness', {}, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.body.error.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });
});

describe('readiness → 200 (embedded: the store is local)', () => {
  const h = useHarness();

  test('GET /v2/readiness answers ready without a root key; other methods are 405', async () => {
    const res = await callKeygate(h.url, '/v2/readiness', undefined, { method: 'GET', rootKey: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ready: true });
    expect(res.body.meta.requestId).toMatch(/^req_/);
    const post = await callKeygate(h.url, '/v2/readiness', {}, { rootKey: null });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
