/**
 * Redis unavailable (issue acceptance): procedures that need a record answer the product spec's
 * 503 envelope within the command timeout, without queueing, and work again by themselves once
 * Redis is back, with no keygate restart.
 */
import { describe, expect, test } from 'vitest';
import { ok, useReplicaOnOwnRedis } from '../support/replicas.js';

describe('distributed: Redis down and back', () => {
  const env = useReplicaOnOwnRedis();

  test('503 envelopes while Redis is down (fast), then recovery without a restart', async () => {
    const { redis, r } = env;
    const { apiId } = await ok(r.call(0, 'apis.createApi', { name: 'down' }));
    const { key, keyId } = await ok(r.call(0, 'keys.createKey', { apiId, credits: { remaining: 10 } }));
    expect((await ok(r.call(0, 'keys.verifyKey', { key }))).code).toBe('VALID');

    await redis.halt(true);
    const calls: [string, unknown][] = [
      ['apis.createApi', { name: 'while-down' }],
      ['keys.getKey', { keyId }],
      ['keys.verifyKey', { key }],
      ['keys.createKey', { apiId }],
      ['ratelimit.limit', { namespace: 'down', identifier: 'x', limit: 5, duration: 60_000 }],
    ];
    for (const [procedure, body] of calls) {
      const started = Date.now();
      const res = await r.call(0, procedure, body);
      expect({ procedure, status: res.status }).toEqual({ procedure, status: 503 });
      expect(res.body.error).toMatchObject({ title: 'Service Unavailable', type: 'https://unkey.com/docs/errors/svc/application/service_unavailable' });
      expect(res.body.error.detail).toBe('The service is temporarily unavailable, try again later.');
      expect(res.body.meta.requestId).toMatch(/^req_/);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    // Liveness does not need Redis.
    expect((await fetch(`${r.processes[0]!.url}/v2/liveness`)).status).toBe(200);

    await redis.restart();
    const deadline = Date.now() + 15_000;
    let verified;
    for (;;) {
      verified = await r.call(0, 'keys.verifyKey', { key });
      if (verified.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not recovered: ${verified.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Nothing was half done while Redis was away: one credit was spent before, one now.
    expect(verified.body.data).toMatchObject({ code: 'VALID', credits: 8 });
    expect((await ok(r.call(0, 'apis.createApi', { name: 'after' }))).apiId).toMatch(/^api_/);
  }, 60_000);
});
