/**
 * The deny-only cache trusts what Redis said for a second at most: a counter that went down
 * (a multiLimit refund on another replica) is admitted again within that second, instead of being
 * denied locally for the rest of the window.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { limiterField, limiterHash } from '../../src/ratelimit/redis-keys.js';
import { LuaScript } from '../../src/redis/scripts.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';

describe('RedisRateLimiter deny cache after a counter went down', () => {
  let client: RedisClient;
  beforeAll(async () => {
    client = createRedis({ url: inject('redisUrl'), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-deny-cache');
    await waitUntilReady(client, 'redis', 10_000);
  });
  afterAll(() => client.disconnect());

  it('denied locally at once, asked again after a second, and admitted once Redis has room', async () => {
    const keyPrefix = `kg-test:${randomUUID()}:`;
    const limiter = new RedisRateLimiter({ client, keyPrefix, failMode: 'closed', log: pino({ level: 'silent' }) });
    const check = { counter: 'x', owner: 'user_x', limit: 3, durationMs: 3_600_000, cost: 1 };
    try {
      for (let i = 0; i < 3; i++) expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(true);
      expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(false);
      const sent = limiter.stats.scriptsSent;
      expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(false);
      expect(limiter.stats.scriptsSent).toBe(sent); // answered from the deny cache

      // Another replica's refund: the counter goes down in Redis.
      const window = String(Math.floor(Date.now() / check.durationMs));
      const refund = LuaScript.load('ratelimit-refund');
      expect(await refund.run(client, [limiterHash(keyPrefix, check.owner, false)], [limiterField(check.owner, check.counter, check.durationMs), window, '2'])).toEqual([1]);
      await new Promise((resolve) => setTimeout(resolve, 1_050));
      expect((await limiter.limit([{ checks: [check] }]))[0]!.passed).toBe(true);
      expect(limiter.stats.scriptsSent).toBe(sent + 1);
    } finally {
      await limiter.close();
    }
  });
});
