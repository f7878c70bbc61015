/**
 * A Redis master that stops answering (its process frozen with SIGSTOP, as a hung host or a
 * network partition looks) costs one command timeout, not one per request: after the first
 * timeout, requests that need that master answer 503 at once, the other masters' requests are
 * served, and once the master answers again (SIGCONT) everything is served again with no restart.
 * The command timeout here is 2 s, so "at once" (under 1 s) cannot be a lucky timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReplicas, type Replicas } from '../support/replicas.js';
import { startRedisCluster, startRedisStandalone, type RedisCluster, type RedisNode, type RedisStandalone } from '../support/redis-servers.js';

const TIMEOUT_MS = 2_000;
const AT_ONCE_MS = 1_000;

interface Timed { readonly id: string; readonly status: number; readonly ms: number; readonly body: any }

async function limit(r: Replicas, identifier: string): Promise<Timed> {
  const started = Date.now();
  const res = await r.call(0, 'ratelimit.limit', { namespace: 'breaker', identifier, limit: 1_000_000, duration: 60_000 });
  return { id: identifier, status: res.status, ms: Date.now() - started, body: res.body };
}

async function metric(r: Replicas, name: string, node: string): Promise<number> {
  const text = await (await fetch(`${r.processes[0]!.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{node="${node}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function untilServed(r: Replicas, identifiers: readonly string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const statuses = await Promise.all(identifiers.map(async (id) => (await limit(r, id)).status));
    if (statuses.every((s) => s === 200)) return;
    if (Date.now() > deadline) throw new Error(`not served again: ${statuses.join(',')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const freeze = (node: RedisNode) => process.kill(node.pid, 'SIGSTOP');
const thaw = (node: RedisNode) => { try { process.kill(node.pid, 'SIGCONT'); } catch { /* already gone */ } };

function expect503(d: Timed): void {
  expect(d.status, JSON.stringify(d.body)).toBe(503);
  expect(d.body.error).toMatchObject({ status: 503, type: 'https://unkey.com/docs/errors/svc/application/service_unavailable' });
}

describe('distributed: a frozen master of a 3-master cluster', () => {
  let cluster: RedisCluster;
  let r: Replicas;
  beforeAll(async () => {
    cluster = await startRedisCluster(3);
    r = await startReplicas(1, { REDIS_CLUSTER_NODES: cluster.nodes.join(','), REDIS_COMMAND_TIMEOUT_MS: String(TIMEOUT_MS) });
  }, 90_000);
  afterAll(async () => {
    for (const m of cluster?.masters ?? []) thaw(m);
    await r?.stop();
    await cluster?.stop();
  });

  test('costs one timeout: then its slots answer 503 at once, the others 200, and all recover after it answers', async () => {
    const identifiers = Array.from({ length: 60 }, (_, i) => `user_${i}`);
    for (const id of identifiers) expect((await limit(r, id)).status).toBe(200);
    // The replica's pub/sub subscriber is on the first node: freeze another one.
    const frozen = cluster.masters[2]!;
    const node = cluster.nodes[2]!;
    freeze(frozen);
    try {
      const first = await Promise.all(identifiers.map((id) => limit(r, id)));
      const failed = first.filter((d) => d.status !== 200);
      const served = first.filter((d) => d.status === 200);
      expect(failed.length).toBeGreaterThan(0);
      expect(served.length).toBeGreaterThan(0);
      for (const d of failed) expect503(d);
      // A cache-invalidation heartbeat published to the frozen master before its circuit opened
      // times out too and has the record cache bypassed briefly: let that settle (later ones avoid it).
      await new Promise((resolve) => setTimeout(resolve, 1_500));

      // One by one, each of the frozen master's requests would wait the whole timeout without the breaker.
      for (const d of failed.slice(0, 8)) {
        const again = await limit(r, d.id);
        expect503(again);
        expect(again.ms).toBeLessThan(AT_ONCE_MS);
      }
      for (const d of served.slice(0, 8)) expect((await limit(r, d.id)).status).toBe(200);
      expect(await metric(r, 'keygate_redis_circuit_open', node)).toBe(1);
      expect(await metric(r, 'keygate_redis_circuit_rejected_total', node)).toBeGreaterThanOrEqual(8);
    } finally {
      thaw(frozen);
    }
    await untilServed(r, identifiers);
    expect(await metric(r, 'keygate_redis_circuit_open', node)).toBe(0);
    expect(await metric(r, 'keygate_redis_circuit_opened_total', node)).toBeGreaterThanOrEqual(1);
  }, 90_000);
});

describe('distributed: a frozen standalone Redis', () => {
  let redis: RedisStandalone;
  let r: Replicas;
  beforeAll(async () => {
    redis = await startRedisStandalone();
    r = await startReplicas(1, { REDIS_CLUSTER_NODES: '', REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: String(TIMEOUT_MS) });
  }, 60_000);
  afterAll(async () => {
    if (redis) thaw(redis);
    await r?.stop();
    await redis?.stop(true);
  });

  test('costs one timeout: then requests answer 503 at once, and are served again once it answers', async () => {
    const identifiers = ['alice', 'bob', 'carol'];
    for (const id of identifiers) expect((await limit(r, id)).status).toBe(200);
    freeze(redis);
    try {
      expect503(await limit(r, 'alice'));
      for (let i = 0; i < 8; i++) {
        const again = await limit(r, identifiers[i % identifiers.length]!);
        expect503(again);
        expect(again.ms).toBeLessThan(AT_ONCE_MS);
      }
      expect(await metric(r, 'keygate_redis_circuit_open', `127.0.0.1:${redis.port}`)).toBe(1);
    } finally {
      thaw(redis);
    }
    await untilServed(r, identifiers);
    expect(await metric(r, 'keygate_redis_circuit_open', `127.0.0.1:${redis.port}`)).toBe(0);
  }, 60_000);
});
