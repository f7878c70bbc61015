/**
 * Redis unavailable at start-up: keygate starts anyway with a clear message, answers 503 where
 * Redis is needed, reports it in the liveness answer, keeps retrying with backoff, and once Redis
 * is up registers ROOT_KEY and serves normally, with no restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate, type ChildKeygate } from '../support/process.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';

describe('distributed: Redis down at start-up', () => {
  const rootKey = 'startup-root-key-0123456789abcdef';
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-startup-'));
  let redis: RedisStandalone;
  let keygate: ChildKeygate | undefined;
  beforeAll(async () => {
    redis = await startRedisStandalone();
    await redis.halt();
  });
  afterAll(async () => {
    await keygate?.kill();
    await redis?.stop(true);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('serves 503s and says why, then recovers by itself when Redis comes up', async () => {
    const started = Date.now();
    keygate = await spawnKeygate({ REDIS_URL: redis.url, ROOT_KEY: rootKey, DATA_DIR: dataDir, REDIS_COMMAND_TIMEOUT_MS: '100' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(keygate.output()).toContain('is not reachable yet: serving anyway and retrying with backoff');

    const live = await callKeygate(keygate.url, '/v2/liveness', undefined, { method: 'GET' });
    expect(live.status).toBe(200);
    expect(live.body.data).toEqual({ message: "we're cooking", redis: 'unreachable' });
    const notReady = await callKeygate(keygate.url, '/v2/readiness', undefined, { method: 'GET' });
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.detail).toBe('The service is temporarily unavailable, try again later.');
    const down = await callKeygate(keygate.url, '/v2/apis.createApi', { name: 'early' }, { rootKey });
    expect(down.status).toBe(503);
    expect(down.body.error.type).toBe('https://unkey.com/docs/errors/svc/application/service_unavailable');

    await redis.restart();
    const deadline = Date.now() + 20_000;
    for (;;) {
      const res = await callKeygate(keygate.url, '/v2/apis.createApi', { name: 'later' }, { rootKey });
      if (res.status === 200) break;
      if (Date.now() > deadline) throw new Error(`not recovered: ${res.status} ${JSON.stringify(res.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const recovered = await callKeygate(keygate.url, '/v2/liveness', undefined, { method: 'GET' });
    expect(recovered.body.data.redis).toBe('reachable');
    const ready = await callKeygate(keygate.url, '/v2/readiness', undefined, { method: 'GET' });
    expect(ready.status).toBe(200);
    expect(ready.body.data).toEqual({ ready: true, redis: 'reachable' });
  }, 60_000);
});
