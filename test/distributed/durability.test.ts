/**
 * Acknowledged means kept, in the distributed mode too: a replica is killed (SIGKILL) in the
 * middle of a stream of createKey calls; every key it had acknowledged verifies through another
 * replica afterwards. Redis runs with AOF and fsync on every write, as the README asks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';
import { ok, startReplicas, type Replicas } from '../support/replicas.js';

describe('distributed: SIGKILL of a replica during createKey', () => {
  let redis: RedisStandalone;
  let r: Replicas;
  beforeAll(async () => {
    redis = await startRedisStandalone({ persistent: true });
    r = await startReplicas(1, { REDIS_CLUSTER_NODES: '', REDIS_URL: redis.url });
  }, 60_000);
  afterAll(async () => {
    await r?.stop();
    await redis?.stop(true);
  });

  test('every key acknowledged before the kill verifies afterwards', async () => {
    const { apiId } = await ok(r.call(0, 'apis.createApi', { name: 'durable' }));
    const victim = r.processes[0]!;
    const acknowledged: string[] = [];
    let killed = false;
    const worker = async (): Promise<void> => {
      while (!killed && acknowledged.length < 1_000) {
        try {
          const res = await callKeygate(victim.url, '/v2/keys.createKey', { apiId, credits: { remaining: 5 } }, { rootKey: r.rootKey });
          if (res.status === 200) acknowledged.push(res.body.data.key);
        } catch {
          return; // the connection died with the process: that call was never acknowledged
        }
      }
    };
    const workers = Array.from({ length: 20 }, worker);
    while (acknowledged.length < 300) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await victim.kill('SIGKILL');
    await Promise.all(workers);

    const survivor = await spawnKeygate({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix, ROOT_KEY: r.rootKey, DATA_DIR: '/tmp' });
    try {
      const verified = await Promise.all(acknowledged.map((key) => callKeygate(survivor.url, '/v2/keys.verifyKey', { key }, { rootKey: r.rootKey })));
      const codes = verified.map((v) => v.body.data?.code);
      expect(codes.filter((c) => c !== 'VALID')).toEqual([]);
      expect(verified.every((v) => v.body.data.credits === 4)).toBe(true);
    } finally {
      await survivor.kill();
    }
  }, 90_000);
});
