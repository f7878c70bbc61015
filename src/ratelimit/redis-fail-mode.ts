/**
 * What the Redis limiter answers when Redis cannot (REDIS_FAIL_MODE): `closed`
 * rejects with ServiceUnavailableError (the routes' 503); `open` lets the check through on local
 * arithmetic alone and says so in a warning, at most one line per interval however many checks
 * fail, so an outage does not flood the log.
 */
import type { Logger } from '../obs/log.js';
import type { LimitCheck, LimitCheckResult } from './types.js';

export type FailMode = 'open' | 'closed';

/**
 * A check passed without Redis: as if the counter were empty (remaining = limit − cost), reset at
 * the end of the local window. A limit of 0 or a cost above the limit still denies: those need no
 * counter to decide.
 */
export function failOpenResult(check: LimitCheck, nowMs: number): LimitCheckResult {
  const never = check.limit === 0 || check.cost > check.limit;
  return {
    passed: !never,
    limit: check.limit,
    remaining: never ? 0 : check.limit - check.cost,
    resetAtMs: (Math.floor(nowMs / check.durationMs) + 1) * check.durationMs,
    retryAfterMs: never ? Number.POSITIVE_INFINITY : 0,
  };
}

/** Logs the first failure, then at most one line per `intervalMs` with the count in between. */
export class ThrottledWarning {
  private lastAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(private readonly log: Logger, private readonly intervalMs = 10_000) {}

  warn(error: unknown, message: string): void {
    const at = Date.now();
    if (at - this.lastAt < this.intervalMs) {
      this.suppressed++;
      return;
    }
    this.log.warn({ err: error, suppressed: this.suppressed }, message);
    this.lastAt = at;
    this.suppressed = 0;
  }
}
