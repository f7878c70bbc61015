/**
 * Fail modes of RedisRateLimiter against a dedicated redis-server that the test freezes
 * (SIGSTOP: the socket stays open, nothing answers, so the command timeout decides), kills, and
 * starts again on the same port: `closed` rejects with ServiceUnavailableError, `open` passes,
 * both within the 100 ms command timeout, and the same limiter works again after the thaw (once a
 * probe of the master answers) and after the restart.
 */
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors/api-error.js';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import type { LimitCheck } from '../../src/ratelimit/types.js';
import { startRedisStandalone } from '../support/redis-servers.js';

const COMMAND_TIMEOUT_MS = 100;
const warnings: string[] = [];
const log = pino({ level: 'warn' }, { write: (line: string) => { warnings.push(line); } });

const check = (counter: string): LimitCheck => ({ counter, owner: 'user', limit: 10, durationMs: 60_000, cost: 3 });

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([work()]);
  return { ms: performance.now() - start, result: result! };
}

describe('RedisRateLimiter fail modes', () => {
  let server: Awaited<ReturnType<typeof startRedisStandalone>>;
  let client: RedisClient;
  let closed: RedisRateLimiter;
  let open: RedisRateLimiter;

  beforeAll(async () => {
    server = await startRedisStandalone();
    client = createRedis({ url: server.url, commandTimeoutMs: COMMAND_TIMEOUT_MS, keyPrefix: '' }, 'test-failmode');
    await waitUntilReady(client, 'dedicated redis', 10_000);
    const keyPrefix = `kg-test:${randomUUID()}:`;
    closed = new RedisRateLimiter({ client, keyPrefix, failMode: 'closed', log });
    open = new RedisRateLimiter({ client, keyPrefix, failMode: 'open', log });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
    client.disconnect();
    if (server.process.signalCode === null && server.process.exitCode === null) process.kill(server.pid, 'SIGCONT');
    await server.stop(true);
  });

  it('a frozen server: closed rejects and open passes, each within the command timeout', async () => {
    expect((await closed.limit([{ checks: [check('healthy')] }]))[0]!.passed).toBe(true);
    process.kill(server.pid, 'SIGSTOP');
    try {
      const c = await timed(() => closed.limit([{ checks: [check('frozen-closed')] }]));
      expect(c.result.status).toBe('rejected');
      expect((c.result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
      expect(c.ms).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS - 5);
      expect(c.ms).toBeLessThan(COMMAND_TIMEOUT_MS + 300);

      warnings.length = 0;
      const before = Date.now();
      const o = await timed(() => Promise.all(Array.from({ length: 20 }, () => open.limit([{ checks: [check('frozen-open'), { ...check('never'), limit: 0 }] }, { checks: [check('frozen-open')] }]))));
      expect(o.result.status).toBe('fulfilled');
      expect(o.ms).toBeLessThan(COMMAND_TIMEOUT_MS + 300);
      for (const [withZero, plain] of (o.result as PromiseFulfilledResult<Awaited<ReturnType<RedisRateLimiter['limit']>>[]>).value) {
        // Passed on local arithmetic alone, except a limit of 0, which needs no counter to deny.
        expect(plain).toMatchObject({ passed: true, results: [{ passed: true, remaining: 7, retryAfterMs: 0 }] });
        expect(plain!.results[0]!.resetAtMs).toBe((Math.floor(before / 60_000) + 1) * 60_000);
        expect(withZero!.passed).toBe(false);
      }
      expect(open.stats.unavailable).toBeGreaterThanOrEqual(40);
      // Forty failed checks, one warning line.
      expect(warnings.filter((w) => w.includes('failing open'))).toHaveLength(1);
    } finally {
      process.kill(server.pid, 'SIGCONT');
    }
    // The connection never dropped: the master's circuit (redis/circuit-breaker.ts) closes when
    // its next probe answers, and from then on the same limiter counts again.
    const thawedBy = Date.now() + 2_000;
    for (;;) {
      const thawed = await Promise.allSettled([closed.limit([{ checks: [check('thawed')] }])]);
      if (thawed[0]!.status === 'fulfilled') {
        expect(thawed[0]!.value[0]!.passed).toBe(true);
        break;
      }
      expect(thawed[0]!.reason).toBeInstanceOf(ServiceUnavailableError);
      if (Date.now() > thawedBy) throw new Error('the limiter did not count again within 2 s of the thaw');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('a stopped server: closed rejects at once, open passes; after a restart on the same port the same limiters work', async () => {
    await server.halt(true);
    const c = await timed(() => closed.limit([{ checks: [check('down-closed')] }]));
    expect(c.result.status).toBe('rejected');
    expect((c.result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    expect(c.ms).toBeLessThan(COMMAND_TIMEOUT_MS + 300);
    const o = await timed(() => open.limit([{ checks: [check('down-open')] }]));
    expect(o.result.status).toBe('fulfilled');
    expect((o.result as PromiseFulfilledResult<Awaited<ReturnType<RedisRateLimiter['limit']>>>).value[0]!.passed).toBe(true);
    expect(o.ms).toBeLessThan(COMMAND_TIMEOUT_MS + 300);

    await server.restart();
    await waitUntilReady(client, 'restarted redis', 5_000);
    // A fresh server has no script cache: the NOSCRIPT → EVAL path, then counts as usual.
    const results = [];
    for (let i = 0; i < 4; i++) results.push((await closed.limit([{ checks: [check('after-restart')] }]))[0]!);
    expect(results.map((g) => [g.passed, g.results[0]!.remaining])).toEqual([[true, 7], [true, 4], [true, 1], [false, 0]]);
    expect((await open.limit([{ checks: [check('after-restart')] }]))[0]!.passed).toBe(false);
  });
});
