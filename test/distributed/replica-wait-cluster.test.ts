/**
 * WAIT on a Redis Cluster whose masters have replicas: a key write waits on each master it wrote
 * to (the record's, the hash index's, the listings'), over the connection that wrote, and only
 * there. Real cluster: 3 masters with one replica each, replicas read directly (READONLY).
 */
import calculateSlot from 'cluster-key-slot';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Config } from '../../src/config.js';
import { hashKey } from '../../src/keys/format.js';
import { decode } from '../../src/redis/codec.js';
import { storageKeys } from '../../src/storage/redis/keys.js';
import { startHarness, type Harness } from '../support/harness.js';
import { cli, startRedisCluster, type RedisCluster, type RedisNode } from '../support/redis-servers.js';

type Running = Harness & { stop(): Promise<void> };

const PREFIX = 'kg-test-wait-cluster:';
const k = storageKeys(PREFIX);

describe('distributed: a Redis Cluster whose masters have replicas', () => {
  let cluster: RedisCluster;
  let topology: Cluster;
  let patient: Running;
  let hasty: Running;
  const onCluster = (wait: Pick<Config, 'redisWaitReplicas' | 'redisWaitTimeoutMs'>): Promise<Running> => startHarness({
    redis: { clusterNodes: cluster.nodes.map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })), commandTimeoutMs: 1_000, keyPrefix: PREFIX },
    ...wait,
  });
  beforeAll(async () => {
    cluster = await startRedisCluster(3, { replicas: 1 });
    topology = new Cluster(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })));
    await new Promise((resolve) => topology.once('ready', resolve));
    patient = await onCluster({ redisWaitReplicas: 'auto', redisWaitTimeoutMs: 5_000 });
    hasty = await onCluster({ redisWaitReplicas: 'auto', redisWaitTimeoutMs: 300 });
  }, 60_000);
  afterAll(async () => {
    topology?.disconnect();
    await patient?.stop();
    await hasty?.stop();
    await cluster?.stop();
  });

  /** The replica of the master serving `key`'s slot, as that master's replication lists it. */
  const replicaOf = (key: string): RedisNode => {
    const master = Number(topology.slots[calculateSlot(key)]![0]!.split(':')[1]);
    const port = Number(/^slave0:ip=[^,]+,port=(\d+)/m.exec(cli(master, ['INFO', 'replication']))![1]);
    return cluster.replicas.find((node) => node.port === port)!;
  };
  const readOnReplica = async <T>(key: string, read: (replica: Redis) => Promise<T>): Promise<T> => {
    const replica = new Redis({ host: '127.0.0.1', port: replicaOf(key).port });
    try {
      await replica.readonly();
      return await read(replica);
    } finally {
      replica.disconnect();
    }
  };

  test('createKey answers only once the replica of every master it wrote to has its part', async () => {
    const apiId = await patient.createApi();
    for (const replica of cluster.replicas) process.kill(replica.pid, 'SIGSTOP');
    const created = patient.call('keys.createKey', { apiId, name: 'everywhere' });
    let answered = false;
    void created.finally(() => { answered = true; });
    try {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answered).toBe(false);
    } finally {
      for (const replica of cluster.replicas) process.kill(replica.pid, 'SIGCONT');
    }
    const res = await created;
    expect(res.status).toBe(200);
    const { keyId, key } = res.body.data;
    const record = await readOnReplica(k.key(keyId), (r) => r.hgetBuffer(k.key(keyId), 'r'));
    expect(decode<{ name: string }>(record)?.name).toBe('everywhere');
    expect(await readOnReplica(k.keyByHash(hashKey(key)), (r) => r.get(k.keyByHash(hashKey(key))))).toMatch(new RegExp(`^${keyId}\\|`));
    expect(await readOnReplica(k.keysOfApi(apiId), (r) => r.zscore(k.keysOfApi(apiId), keyId))).toBe('0');
  });

  test("updateKey waits on the record's master only: its replica stalled is a 503, another's is not", async () => {
    const { keyId } = await hasty.createKey({ apiId: await hasty.createApi() });
    const own = replicaOf(k.key(keyId));
    const other = cluster.replicas.find((node) => node !== own)!;

    process.kill(other.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      expect((await hasty.call('keys.updateKey', { keyId, name: 'elsewhere-stalled' })).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(300);
    } finally {
      process.kill(other.pid, 'SIGCONT');
    }

    process.kill(own.pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const res = await hasty.call('keys.updateKey', { keyId, name: 'own-stalled' });
      expect(res.status).toBe(503);
      expect(res.body.error.type).toBe('https://unkey.com/docs/errors/svc/application/service_unavailable');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    } finally {
      process.kill(own.pid, 'SIGCONT');
    }
  });
});
