/**
 * Batching and the deny-only cache of RedisRateLimiter, counted twice: by the limiter's own
 * counters and by Redis (`INFO commandstats`) on a dedicated server nobody else talks to. Then
 * accuracy under concurrency: two limiters on two Cluster clients admit exactly `limit`.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { LuaScript } from '../../src/redis/scripts.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import type { LimitCheck } from '../../src/ratelimit/types.js';
import { startRedisStandalone } from '../support/redis-servers.js';

const log = pino({ level: 'silent' });
const BASE = 1_700_000_040_000;

/** EVALSHA + EVAL calls the server has executed so far. */
async function scriptCalls(client: RedisClient): Promise<number> {
  const info = await client.info('commandstats');
  const calls = (name: string): number => Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
}

describe('RedisRateLimiter batching (dedicated redis-server)', () => {
  let server: Awaited<ReturnType<typeof startRedisStandalone>>;
  let client: RedisClient;
  beforeAll(async () => {
    server = await startRedisStandalone();
    client = createRedis({ url: server.url, commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-batching');
    await waitUntilReady(client, 'dedicated redis', 10_000);
  });
  afterAll(async () => {
    client.disconnect();
    await server.stop();
  });

  const limiterAt = (now?: () => number) => new RedisRateLimiter({ client, keyPrefix: `kg-test:${randomUUID()}:`, failMode: 'closed', log, now });

  it('100 concurrent single-check groups of one owner cost one script call', async () => {
    const limiter = limiterAt();
    try {
      // Warm up: loads the script on the server (the first EVALSHA answers NOSCRIPT).
      await limiter.limit([{ checks: [{ counter: 'warm', owner: 'u', limit: 1, durationMs: 60_000, cost: 0 }] }]);
      const before = { redis: await scriptCalls(client), sent: limiter.stats.scriptsSent };
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => limiter.limit([{ checks: [
        { counter: `c${i % 10}`, owner: 'u', limit: 7, durationMs: 60_000, cost: 1 },
      ] }])));
      expect(results.flat().filter((g) => g.passed)).toHaveLength(70); // 10 counters × limit 7
      const sent = limiter.stats.scriptsSent - before.sent;
      const executed = await scriptCalls(client) - before.redis;
      expect(sent).toBe(1);
      expect(executed).toBe(1);
      expect(limiter.stats.groupsEvaluated).toBe(101);
    } finally {
      await limiter.close();
    }
  });

  it('after SCRIPT FLUSH, a pipelined flush of several calls falls back to EVAL once each and counts stay exact', async () => {
    // One check per call: the 12 groups of this turn become 12 calls in one pipeline.
    const limiter = new RedisRateLimiter({ client, keyPrefix: `kg-test:${randomUUID()}:`, failMode: 'closed', log, maxChecksPerCall: 1 });
    try {
      await client.script('FLUSH');
      const check: LimitCheck = { counter: 'flushed', owner: 'u', limit: 10, durationMs: 60_000, cost: 1 };
      const results = await Promise.all(Array.from({ length: 12 }, () => limiter.limit([{ checks: [check] }])));
      expect(results.flat().map((g) => g.passed ? g.results[0]!.remaining : -1)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, -1, -1]);
      expect(limiter.stats.scriptsSent).toBe(12);
      expect(await client.script('EXISTS', LuaScript.load('ratelimit-check', { once: true }).sha)).toEqual([1]);
    } finally {
      await limiter.close();
    }
  });

  it('a flood of denied checks after exhaustion costs no script call until the window lets it pass', async () => {
    let t = BASE + 100;
    const limiter = limiterAt(() => t);
    try {
      const check: LimitCheck = { counter: 'flood', owner: 'attacker', limit: 5, durationMs: 1000, cost: 1 };
      for (let i = 0; i < 5; i++) expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(true);
      const [first] = await limiter.limit([{ checks: [check] }]); // Redis says no: now it is cached
      expect(first!.passed).toBe(false);
      const before = { redis: await scriptCalls(client), sent: limiter.stats.scriptsSent };
      for (const step of [0, 300, 600, 899]) {
        t = BASE + 100 + step;
        const flood = await Promise.all(Array.from({ length: 500 }, () => limiter.limit([{ checks: [check] }])));
        expect(flood.flat().every((g) => !g.passed && g.results[0]!.remaining === 0)).toBe(true);
        // The local answer is Redis' answer: same window end, retryAfter counted from now.
        expect(flood[0]![0]!.results[0]).toMatchObject({ resetAtMs: BASE + 1000, retryAfterMs: first!.results[0]!.retryAfterMs - step });
      }
      expect(limiter.stats.localDenials).toBe(2000);
      expect(limiter.stats.scriptsSent - before.sent).toBe(0);
      expect(await scriptCalls(client) - before.redis).toBe(0);
      // At retryAfter it may pass again, and Redis decides it.
      t = BASE + 100 + first!.results[0]!.retryAfterMs;
      expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(true);
      expect(limiter.stats.scriptsSent - before.sent).toBe(1);
    } finally {
      await limiter.close();
    }
  });

  it('on server time too: after a denial, a flood of 300 costs no script call', async () => {
    const limiter = limiterAt();
    try {
      const check: LimitCheck = { counter: 'flood', owner: 'attacker', limit: 3, durationMs: 3_600_000, cost: 1 };
      const first = await Promise.all(Array.from({ length: 4 }, () => limiter.limit([{ checks: [check] }])));
      expect(first.flat().map((g) => g.passed)).toEqual([true, true, true, false]);
      const before = await scriptCalls(client);
      const flood = await Promise.all(Array.from({ length: 300 }, () => limiter.limit([{ checks: [check] }])));
      expect(flood.flat().some((g) => g.passed)).toBe(false);
      expect(await scriptCalls(client) - before).toBe(0);
      expect(limiter.stats.localDenials).toBe(300);
    } finally {
      await limiter.close();
    }
  });

  it('checks arriving one per turn while batches are in flight wait and go together, in arrival order', async () => {
    const limiter = limiterAt();
    try {
      await limiter.limit([{ checks: [{ counter: 'warm', owner: 'u', limit: 1, durationMs: 60_000, cost: 0 }] }]);
      const before = limiter.stats.scriptsSent;
      // Redis holds scripts for a second (a slow or busy Redis): the first batches stay in flight
      // while a check arrives every event-loop turn. Without waiting for them, each turn was a call.
      // The pause outlasts the 200 turns even on a loaded machine, where they can take over 100 ms.
      await client.call('CLIENT', 'PAUSE', '1000', 'WRITE');
      const answers: Promise<boolean>[] = [];
      for (let i = 0; i < 200; i++) {
        answers.push(limiter.limit([{ checks: [{ counter: 'one', owner: 'u', limit: 150, durationMs: 60_000, cost: 1 }] }]).then(([g]) => g!.passed));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const passed = await Promise.all(answers);
      // Exactly the first 150 to arrive pass: waiting never reorders one counter's checks.
      expect(passed).toEqual(Array.from({ length: 200 }, (_, i) => i < 150));
      // Two batches in flight, the rest waited for one of them and went together (a check
      // arriving right as one came back may make one more).
      expect(limiter.stats.scriptsSent - before).toBeLessThanOrEqual(4);
    } finally {
      await limiter.close();
    }
  });
});

describe('RedisRateLimiter accuracy on the Cluster', () => {
  const nodes = inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));
  const clients = [0, 1].map(() => createRedis({ clusterNodes: nodes, commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-accuracy'));
  beforeAll(() => Promise.all(clients.map((c) => waitUntilReady(c, 'test cluster', 10_000))));
  afterAll(() => { for (const c of clients) c.disconnect(); });

  it('exactly `limit` admitted out of 500 concurrent checks across two limiters on two clients', async () => {
    const keyPrefix = `kg-test:${randomUUID()}:`;
    // One fixed time for both, so no window edge can fall inside the test.
    const limiters = clients.map((client) => new RedisRateLimiter({ client, keyPrefix, failMode: 'closed', log, now: () => BASE + 10 }));
    try {
      const identity: LimitCheck = { counter: 'vk:i:id_1:requests', owner: 'id_1', limit: 37, durationMs: 60_000, cost: 1 };
      const daily: LimitCheck = { counter: 'vk:i:id_1:daily', owner: 'id_1', limit: 1_000, durationMs: 86_400_000, cost: 1 };
      const outcomes = await Promise.all(Array.from({ length: 500 }, (_, i) => limiters[i % 2]!.limit([{ checks: [identity, daily] }])));
      const admitted = outcomes.flat().filter((g) => g.passed);
      expect(admitted).toHaveLength(37);
      // The sibling limit counted only the admitted groups (denied ones never leak into it).
      const [peek] = await limiters[0]!.limit([{ checks: [{ ...daily, cost: 0 }] }]);
      expect(peek!.results[0]!.remaining).toBe(1_000 - 37);
      // Both limiters took part, in few calls each.
      for (const l of limiters) {
        expect(l.stats.groupsEvaluated).toBeGreaterThan(0);
        expect(l.stats.scriptsSent).toBeLessThan(l.stats.groupsEvaluated);
      }
    } finally {
      await Promise.all(limiters.map((l) => l.close()));
    }
  });
});
