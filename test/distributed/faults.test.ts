/**
 * Faults in the distributed mode (issue acceptance), on a Redis Cluster of this file's own:
 * a master killed mid-traffic costs only its slots a 503 (answered within the command timeout),
 * the rest keeps answering, and all recovers after the master restarts, with no keygate restart;
 * a dropped pub/sub connection never leaves a stale VALID behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ok, startReplicas, type Replicas } from '../support/replicas.js';
import { cli, startRedisCluster, type RedisCluster } from '../support/redis-servers.js';

describe('distributed: faults', () => {
  let cluster: RedisCluster;
  let r: Replicas;
  beforeAll(async () => {
    // Persistent, as production Redis is: the restarted master keeps the records in its slots
    // (the ROOT_KEY record among them, in about one run of three).
    cluster = await startRedisCluster(3, { persistent: true });
    r = await startReplicas(2, { REDIS_CLUSTER_NODES: cluster.nodes.join(',') });
  }, 90_000);
  afterAll(async () => {
    await r?.stop();
    await cluster?.stop();
  });

  const identifiers = Array.from({ length: 60 }, (_, i) => `user_${i}`);
  const limit = (i: number, identifier: string) => r.call(i, 'ratelimit.limit', { namespace: 'faults', identifier, limit: 1_000_000, duration: 60_000 });

  test('a killed master: its slots answer 503 within the timeout, the others 200; recovery without restart', async () => {
    // Both replicas have seen the namespace and the root key (cached), as in steady traffic.
    for (const [i, id] of identifiers.entries()) expect((await limit(i, id)).status).toBe(200);
    // The replicas' pub/sub subscriber is on the first node: kill another one.
    await cluster.masters[2]!.stop(true);

    const during = await Promise.all(identifiers.map(async (id, i) => {
      const started = Date.now();
      const res = await limit(i, id);
      return { id, status: res.status, body: res.body, ms: Date.now() - started };
    }));
    const failed = during.filter((d) => d.status === 503);
    const served = during.filter((d) => d.status === 200);
    expect(failed.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(0);
    expect(during.filter((d) => d.status !== 200 && d.status !== 503).map((d) => [d.status, d.body])).toEqual([]);
    for (const d of during) expect(d.ms).toBeLessThan(1_500);
    for (const d of failed) {
      expect(d.body.error).toMatchObject({ status: 503, type: 'https://unkey.com/docs/errors/svc/application/service_unavailable' });
      expect(d.body.error.detail).toMatch(/temporarily unavailable/);
    }
    // The same identifiers fail again (their slots), the others keep working.
    // Everything a call for one identifier needs sits in that identifier's slot (or is cached):
    // the identifiers that were served are served by either replica, the failed ones fail on both.
    for (const d of served.slice(0, 10)) expect((await limit(1, d.id)).status).toBe(200);
    for (const d of served.slice(0, 10)) expect((await limit(0, d.id)).status).toBe(200);
    for (const d of failed.slice(0, 5)) expect((await limit(1, d.id)).status).toBe(503);

    await cluster.restart(2);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const statuses = await Promise.all(failed.map((d, i) => limit(i, d.id).then((res) => res.status)));
      if (statuses.every((s) => s === 200)) break;
      if (Date.now() > deadline) throw new Error(`not recovered: ${statuses.join(',')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 90_000);

  test('pub/sub connections dropped while a key is deleted: no replica answers VALID for it afterwards', async () => {
    const { apiId } = await ok(r.call(0, 'apis.createApi', { name: 'pubsub' }));
    const { key, keyId } = await ok(r.call(0, 'keys.createKey', { apiId }));
    for (let i = 0; i < 2; i++) {
      expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('VALID');
    }
    // Drop every subscriber connection, then delete while the message may have nobody to reach.
    for (const node of cluster.nodes) cli(Number(node.split(':')[1]), ['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await ok(r.call(0, 'keys.deleteKey', { keyId }));
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('NOT_FOUND');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Once subscribed again, the replica caches again and still knows the key is gone.
    const subscribers = () => cluster.nodes.reduce((n, node) => n + cli(Number(node.split(':')[1]), ['CLIENT', 'LIST', 'TYPE', 'pubsub']).split('\n').filter((l) => l.includes('keygate:invalidation')).length, 0);
    const deadline = Date.now() + 10_000;
    while (subscribers() < 2) {
      if (Date.now() > deadline) throw new Error('subscribers did not come back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('NOT_FOUND');
  }, 60_000);
});
