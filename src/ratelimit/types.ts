/**
 * The rate limiter interface. The embedded (in-process) and the Redis (Lua) implementations both
 * satisfy it and pass test/contracts/rate-limiter.contract.ts.
 */

/** One limit to check: `cost` units against `limit` per `durationMs`, counted under `counter`. */
export interface LimitCheck {
  /** Identifies the counter, e.g. `vk:<identityId>:<name>`; the duration is appended by the limiter. */
  readonly counter: string;
  /**
   * Whose counter this is. Checks with the same owner are stored together (one Redis Cluster
   * slot), so a group whose checks share one owner commits atomically in one script call; a group
   * spanning owners is compensated instead (see RateLimiter). verifyKey uses the identity id when
   * the key has one, else the key id; ratelimit.limit/multiLimit use the identifier. Absent: the
   * counter is its own owner. The memory limiter ignores it.
   */
  readonly owner?: string;
  /** Units allowed per window; 0 blocks: every check is denied, cost 0 included. */
  readonly limit: number;
  readonly durationMs: number;
  /** Units to consume; 0 only reads. */
  readonly cost: number;
  /**
   * The memory limiter's key for this counter (memoryKeyOf), when made once with a check that is
   * used again and again (verifyKey's hot entries).
   */
  readonly memoryKey?: string;
  /**
   * On checks made once and used again and again (verifyKey's hot entries): where a limiter keeps
   * what it derives from the check alone (the Redis limiter: the key and its slot).
   */
  readonly memo?: LimiterMemo;
}

export interface LimiterMemo {
  /** What `value` was derived with (the Redis limiter: its key prefix and whether it is a Cluster). */
  made?: string;
  value?: unknown;
}

/** The memory limiter's key of a counter: its name and window length. */
export const memoryKeyOf = (counter: string, durationMs: number): string => `${counter}\u0000${durationMs}`;

/** Checks that commit all or nothing. */
export interface LimitGroup {
  readonly checks: readonly LimitCheck[];
  /** On groups made once and used again and again (verifyKey's hot entries), as LimitCheck's. */
  readonly memo?: LimiterMemo;
}

export interface LimitCheckResult {
  /** This check on its own would pass. */
  readonly passed: boolean;
  readonly limit: number;
  /**
   * 0 for a denied check; otherwise the units still available after this call (a check that
   * passed in a group that was denied consumed nothing, so it reports what is still there).
   */
  readonly remaining: number;
  /** Unix ms when the current aligned window ends. */
  readonly resetAtMs: number;
  /** For a denied check: ms until the same cost could pass (0 when passed). */
  readonly retryAfterMs: number;
}

export interface LimitGroupResult {
  /** Every check passed, and all of them were consumed. */
  readonly passed: boolean;
  readonly results: readonly LimitCheckResult[];
}

/**
 * Checks and consumes rate-limit capacity.
 *
 * Each group commits all or nothing: a group is consumed only if every one of its checks passes.
 * A denial is a normal result, not a rejection; the promise rejects only when the limiter cannot
 * reach a decision (the Redis limiter in fail mode `closed`: ServiceUnavailableError). Groups are
 * evaluated in order, so later groups see earlier commits. Safe to call concurrently.
 *
 * Atomicity in the Redis limiter: a group whose checks share one owner is all or nothing in one
 * script. A group spanning owners (multiLimit across identifiers) runs per owner; if any part is
 * denied, the committed parts are refunded, so another request may briefly see the refunded cost
 * (false denials only, never over-admission).
 */
export interface RateLimiter {
  limit(groups: readonly LimitGroup[]): Promise<LimitGroupResult[]>;
  /** The same decision made at once, where the counters live in this process (the memory limiter). */
  limitNow?(groups: readonly LimitGroup[]): LimitGroupResult[];
  /** Calls `listener` (one; a later call replaces it) with the results of every call that reached a decision (metrics count them). */
  observe?(listener: (results: readonly LimitGroupResult[]) => void): void;
  close(): Promise<void>;
}
