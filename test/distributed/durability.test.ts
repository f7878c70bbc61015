/**
 * Acknowledged means kept, in the distributed mode too: a replica is killed (SIGKILL) in the
 * middle of a stream of createKey calls; every key it had acknowledged verifies through another
 * replica afterwards; and with Redis killed too, every write acknowledged before is there once
 * both restart. Redis runs with AOF and fsync on every write, as docs/distributed.md asks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';
import { ok, startReplicas, type Replicas } from '../support/replicas.js';
import { checkAcknowledged, prepareStream, writeUntilKilled } from '../support/write-stream.js';

/**
 * For the replicas that read back what was acknowledged. Redis fsyncs every write on a disk the
 * whole suite shares, and one stall longer than the default command timeout answers 503 to every
 * read in flight: a refusal, which this file does not check, not a lost write, which it does.
 */
const PATIENT = { REDIS_COMMAND_TIMEOUT_MS: '5000' };

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

    const survivor = await spawnKeygate({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix, ROOT_KEY: r.rootKey, DATA_DIR: '/tmp', ...PATIENT });
    try {
      const verified = await Promise.all(acknowledged.map((key) => callKeygate(survivor.url, '/v2/keys.verifyKey', { key }, { rootKey: r.rootKey })));
      // An answer without a code shows its status and error, so a failure says what went wrong.
      const codes = verified.map((v) => v.body.data?.code ?? `${v.status} ${JSON.stringify(v.body.error ?? v.body)}`);
      expect(codes.filter((c) => c !== 'VALID')).toEqual([]);
      expect(verified.every((v) => v.body.data.credits === 4)).toBe(true);
    } finally {
      await survivor.kill();
    }
  }, 90_000);

  test('Redis and the replica both SIGKILLed mid-stream: every acknowledged write is there after both restart', async () => {
    // The first test killed the replica: a fresh one on the same Redis.
    let server = await spawnKeygate({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix, ROOT_KEY: r.rootKey, DATA_DIR: '/tmp' });
    const { apiId } = (await callKeygate(server.url, '/v2/apis.createApi', { name: 'durable-both' }, { rootKey: r.rootKey })).body.data;
    const target = { url: () => server.url, rootKey: r.rootKey, apiId };
    try {
      const keys = await prepareStream(target, 16);
      const outcome = await writeUntilKilled(target, keys, 600, async () => {
        await redis.halt(true);
        await server.kill('SIGKILL');
      });
      // Calls in flight when Redis died answer 503 (or lose their connection with the replica);
      // no other refusal, and nothing acknowledged may be missing.
      expect(outcome.refused.filter((answer) => !answer.startsWith('503 '))).toEqual([]);
      await redis.restart();
      server = await spawnKeygate({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: r.keyPrefix, ROOT_KEY: r.rootKey, DATA_DIR: '/tmp', ...PATIENT });
      await checkAcknowledged(target, outcome);
    } finally {
      await server.kill();
    }
  }, 120_000);
});
