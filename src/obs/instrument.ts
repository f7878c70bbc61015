/**
 * Counting for GET /metrics, kept out of the parts it counts: the limiter's decisions (through
 * the limiter's observer, or a wrapper for a limiter without one) and the Redis clients' round
 * trips. Each adds one callback per call, no allocation of its own on the path of a request that
 * does not use them.
 */
import type { LimitGroup, LimitGroupResult, RateLimiter } from '../ratelimit/types.js';
import type { RedisClient } from '../redis/client.js';
import type { Metrics } from './metrics.js';

/** Every check's outcome (ratelimit.limit, multiLimit and verifyKey limits all pass here); the limiter to use from then on. */
export function countingLimiter(inner: RateLimiter, metrics: Metrics): RateLimiter {
  const count = <T extends readonly LimitGroupResult[]>(results: T): T => {
    for (const group of results) {
      for (const check of group.results) {
        if (check.passed) metrics.ratelimit.passed++;
        else metrics.ratelimit.denied++;
      }
    }
    return results;
  };
  // A limiter that reports its results itself needs no wrapper (no promise step per call).
  if (inner.observe) {
    inner.observe(count);
    return inner;
  }
  const limitNow = inner.limitNow?.bind(inner);
  return {
    limit: (groups) => inner.limit(groups).then(count),
    ...(limitNow ? { limitNow: (groups: readonly LimitGroup[]) => count(limitNow(groups)) } : {}),
    close: () => inner.close(),
  };
}

interface SentCommand {
  readonly name: string;
  readonly promise: Promise<unknown>;
}

/**
 * Times every command the client sends, from handing it to ioredis to its answer (scripts show as
 * evalsha). ioredis has no command hook, so its sendCommand is wrapped on this one instance.
 */
export function instrumentRedis(client: RedisClient, metrics: Metrics): void {
  const target = client as unknown as { sendCommand(command: SentCommand, ...rest: unknown[]): unknown };
  const send = target.sendCommand.bind(target);
  target.sendCommand = (command: SentCommand, ...rest: unknown[]) => {
    const started = performance.now();
    const result = send(command, ...rest);
    // ioredis keeps the case it was given (`call('EVALSHA')`, `hmget()`): one label per command.
    const name = command.name.toLowerCase();
    command.promise.then(
      () => metrics.redisCommand(name, (performance.now() - started) / 1e3, false),
      // NOSCRIPT is how a script is first loaded (redis/scripts.ts falls back to EVAL): not a fault.
      (err: unknown) => metrics.redisCommand(name, (performance.now() - started) / 1e3, !(err instanceof Error && err.message.startsWith('NOSCRIPT'))),
    );
    return result;
  };
}
