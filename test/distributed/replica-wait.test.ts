/**
 * When the Redis master has replicas, createKey and updateKey answer only once the replicas have
 * the write (WAIT), so a failover cannot lose an acknowledged key. A replica that does not answer
 * makes them 503 within REDIS_WAIT_TIMEOUT_MS. Without replicas no WAIT is sent at all.
 * Real redis-servers: a master and a replica started with --replicaof, read directly.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Config } from '../../src/config.js';
import { hashKey } from '../../src/keys/format.js';
import { decode } from '../../src/redis/codec.js';
import { storageKeys } from '../../src/storage/redis/keys.js';
import { startHarness, type Harness } from '../support/harness.js';
import { startRedisStandalone, type RedisStandalone } from '../support/redis-servers.js';

type Running = Harness & { stop(): Promise<void> };

const PREFIX = 'kg-test-wait:';
const k = storageKeys(PREFIX);
const UNAVAILABLE = 'https://unkey.com/docs/errors/svc/application/service_unavailable';

function onRedis(redis: RedisStandalone, wait: Pick<Config, 'redisWaitReplicas' | 'redisWaitTimeoutMs'>): Promise<Running> {
  return startHarness({ redis: { url: redis.url, commandTimeoutMs: 1_000, keyPrefix: PREFIX }, ...wait });
}

/** SIGSTOP: the replica keeps its connection to the master but answers nothing. */
const pause = (node: RedisStandalone): boolean => process.kill(node.pid, 'SIGSTOP');
const resume = (node: RedisStandalone): boolean => process.kill(node.pid, 'SIGCONT');

/** How often the master has run WAIT so far. */
async function waitCalls(master: Redis): Promise<number> {
  return Number(/cmdstat_wait:calls=(\d+)/.exec(await master.info('commandstats'))?.[1] ?? 0);
}

/** A call that has not answered by `ms` is still pending: resolves false then, true if it answered. */
async function answeredWithin(call: Promise<unknown>, ms: number): Promise<boolean> {
  let answered = false;
  void call.then(() => { answered = true; }, () => { answered = true; });
  await new Promise((resolve) => setTimeout(resolve, ms));
  return answered;
}

describe('distributed: no replica, no WAIT', () => {
  let master: RedisStandalone;
  let h: Running;
  let direct: Redis;
  beforeAll(async () => {
    master = await startRedisStandalone();
    h = await onRedis(master, { redisWaitReplicas: 'auto', redisWaitTimeoutMs: 5_000 });
    direct = new Redis(master.url);
  });
  afterAll(async () => {
    direct?.disconnect();
    await h?.stop();
    await master?.stop(true);
  });

  test('createKey and updateKey on a master without replicas send no WAIT', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    expect((await h.call('keys.updateKey', { keyId, name: 'renamed' })).status).toBe(200);
    expect(await waitCalls(direct)).toBe(0);
  });
});

describe('distributed: a master with a replica', () => {
  let master: RedisStandalone;
  let replica: RedisStandalone;
  let patient: Running;
  let hasty: Running;
  let onReplica: Redis;
  beforeAll(async () => {
    master = await startRedisStandalone();
    replica = await startRedisStandalone({ replicaOf: master.port });
    patient = await onRedis(master, { redisWaitReplicas: 'auto', redisWaitTimeoutMs: 5_000 });
    hasty = await onRedis(master, { redisWaitReplicas: 'auto', redisWaitTimeoutMs: 300 });
    onReplica = new Redis(replica.url);
  }, 30_000);
  afterAll(async () => {
    onReplica?.disconnect();
    await patient?.stop();
    await hasty?.stop();
    await replica?.stop(true);
    await master?.stop(true);
  });

  test('createKey answers only once the replica has the key, its hash index and its listing', async () => {
    const apiId = await patient.createApi();
    pause(replica);
    const created = patient.call('keys.createKey', { apiId, name: 'replicated' });
    try {
      expect(await answeredWithin(created, 400)).toBe(false);
    } finally {
      resume(replica);
    }
    const res = await created;
    expect(res.status).toBe(200);
    const { keyId, key } = res.body.data;
    // Read at once, from the replica itself: it must have everything that makes the key verify.
    expect(decode<{ name: string }>(await onReplica.hgetBuffer(k.key(keyId), 'r'))?.name).toBe('replicated');
    expect(await onReplica.get(k.keyByHash(hashKey(key)))).toMatch(new RegExp(`^${keyId}\\|`));
    expect(await onReplica.zscore(k.keysOfApi(apiId), keyId)).toBe('0');
  });

  test('updateKey answers only once the replica has the change', async () => {
    const { keyId } = await patient.createKey({ apiId: await patient.createApi() });
    pause(replica);
    const updated = patient.call('keys.updateKey', { keyId, name: 'changed', credits: { remaining: 7 } });
    try {
      expect(await answeredWithin(updated, 400)).toBe(false);
    } finally {
      resume(replica);
    }
    expect((await updated).status).toBe(200);
    expect(decode<{ name: string }>(await onReplica.hgetBuffer(k.key(keyId), 'r'))?.name).toBe('changed');
    expect(await onReplica.hget(k.key(keyId), 'cr')).toBe('7');
  });

  test('verification does not queue behind a write that waits for its replica', async () => {
    const apiId = await patient.createApi();
    const { key } = await patient.createKey({ apiId });
    pause(replica);
    let waiting: Promise<unknown> | undefined;
    try {
      waiting = patient.call('keys.createKey', { apiId });
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The WAIT (up to 5 s) holds the key writes' own connection, not the one reads use.
      const started = Date.now();
      expect((await patient.verify(key)).body.data.valid).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      resume(replica);
    }
    expect(((await waiting) as { status: number }).status).toBe(200);
  });

  test('a replica that does not answer makes createKey and updateKey 503 within the timeout', async () => {
    const apiId = await hasty.createApi();
    const { keyId } = await hasty.createKey({ apiId });
    pause(replica);
    try {
      for (const [procedure, body] of [['keys.createKey', { apiId }], ['keys.updateKey', { keyId, name: 'unsure' }]] as const) {
        const started = Date.now();
        const res = await hasty.call(procedure, body);
        const took = Date.now() - started;
        expect(res.status, procedure).toBe(503);
        expect(res.body.error.type).toBe(UNAVAILABLE);
        expect(took).toBeGreaterThanOrEqual(300);
        expect(took).toBeLessThan(1_500);
      }
    } finally {
      resume(replica);
    }
    // Back in sync: writes are acknowledged again.
    expect((await hasty.call('keys.updateKey', { keyId, name: 'sure' })).status).toBe(200);
  });
});

describe('distributed: a replica that is gone', () => {
  let master: RedisStandalone;
  let replica: RedisStandalone;
  let auto: Running;
  let one: Running;
  beforeAll(async () => {
    master = await startRedisStandalone();
    replica = await startRedisStandalone({ replicaOf: master.port });
    auto = await onRedis(master, { redisWaitReplicas: 'auto', redisWaitTimeoutMs: 300 });
    one = await onRedis(master, { redisWaitReplicas: 1, redisWaitTimeoutMs: 300 });
  }, 30_000);
  afterAll(async () => {
    await auto?.stop();
    await one?.stop();
    await replica?.stop(true);
    await master?.stop(true);
  });

  test("'auto' stops waiting for it; REDIS_WAIT_REPLICAS=1 answers 503 until one is back", async () => {
    const apiId = await auto.createApi();
    expect((await one.call('keys.createKey', { apiId })).status).toBe(200);
    await replica.stop(true);
    expect((await auto.call('keys.createKey', { apiId })).status).toBe(200);
    const refused = await one.call('keys.createKey', { apiId });
    expect(refused.status).toBe(503);
    expect(refused.body.error.type).toBe(UNAVAILABLE);
  });
});
