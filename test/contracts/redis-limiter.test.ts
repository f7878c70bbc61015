/**
 * The RateLimiter contract (rate-limiter.contract.ts) on the Redis limiter: once on the shared
 * standalone Redis and once on the shared 3-master Cluster, with the contract's injected clock
 * sent as the script's time override. The contract's checks carry no owner, so on the Cluster
 * every counter is its own owner and its multi-check groups span slots: the compensated path
 * (refunds, rounds) has to meet the same assertions as the atomic one.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { describeRateLimiter } from './rate-limiter.contract.js';

const log = pino({ level: 'silent' });

function clusterNodes(): { host: string; port: number }[] {
  return inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));
}

const clients = {
  standalone: createRedis({ url: inject('redisUrl'), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-limiter'),
  cluster: createRedis({ clusterNodes: clusterNodes(), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-limiter'),
} satisfies Record<string, RedisClient>;

beforeAll(async () => {
  await Promise.all(Object.values(clients).map((c) => waitUntilReady(c, 'test redis', 10_000)));
});
afterAll(() => {
  for (const c of Object.values(clients)) c.disconnect();
});

for (const [name, client] of Object.entries(clients)) {
  describe(`RedisRateLimiter on ${name}`, () => {
    // A fresh key prefix per limiter: every test starts on keys nobody else touched.
    describeRateLimiter(`redis ${name}`, (now) => new RedisRateLimiter({ client, keyPrefix: `kg-test:${randomUUID()}:`, failMode: 'closed', log, now }));
  });
}
