/**
 * The embedded limiter: exact, in-process, synchronous inside `limit()`, so concurrent requests
 * can never interleave between a check and its commit. Counters live in a Map and are swept once
 * they are older than two windows, so memory follows the set of active counters.
 *
 * It runs inside most verifications, so a group is decided without objects of its own: window
 * states are numbers in scratch arrays reused by every call, and a committed counter is updated in
 * place (nothing else holds it: callers get results, never counters).
 */
import { effectiveOf, retryAfter } from './sliding-window.js';
import { memoryKeyOf, type LimitCheck, type LimitCheckResult, type LimitGroup, type LimitGroupResult, type RateLimiter } from './types.js';

export interface MemoryLimiterOptions {
  /** Clock in unix ms; injectable for tests. */
  readonly now?: () => number;
  /** How often stale counters are removed. */
  readonly sweepIntervalMs?: number;
}

/** One counter's window state (sliding-window.ts's WindowState) and its window length. */
class Counter {
  /** False once swept: a check's memo that still holds it must look the counter up again. */
  live = true;
  constructor(public s: number, public c: number, public p: number, readonly durationMs: number) {}
}

let limiters = 0;

export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  /**
   * Marks the counter a kept check (the hot set's, one per identity limit) remembers in its memo:
   * read through the check, which verifications of every key of the identity keep warm, instead
   * of looked up in the Map.
   */
  private readonly memoMark = `memory ${++limiters}`;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private listener?: (results: readonly LimitGroupResult[]) => void;
  // Per check of the group being decided: its window state before its own cost, and its count.
  private readonly checkS: number[] = [];
  private readonly checkC: number[] = [];
  private readonly checkP: number[] = [];
  private readonly checkEff: number[] = [];
  // Per counter the group would change (by first mention): key, stored counter, tentative state.
  private readonly pendingKey: string[] = [];
  private readonly pendingCounter: (Counter | undefined)[] = [];
  private readonly pendingS: number[] = [];
  private readonly pendingC: number[] = [];
  private readonly pendingP: number[] = [];
  private readonly pendingD: number[] = [];

  constructor(options: MemoryLimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 30_000);
    this.sweeper.unref();
  }

  async limit(groups: readonly LimitGroup[]): Promise<LimitGroupResult[]> {
    return this.limitNow(groups);
  }

  limitNow(groups: readonly LimitGroup[]): LimitGroupResult[] {
    const nowMs = this.now();
    const out = new Array<LimitGroupResult>(groups.length);
    for (let g = 0; g < groups.length; g++) out[g] = this.limitGroup(groups[g]!, nowMs);
    this.listener?.(out);
    return out;
  }

  observe(listener: (results: readonly LimitGroupResult[]) => void): void {
    this.listener = listener;
  }

  /** Number of live counters (for tests and metrics). */
  get size(): number {
    return this.counters.size;
  }

  private limitGroup(group: LimitGroup, nowMs: number): LimitGroupResult {
    const { checks } = group;
    const n = checks.length;
    const { checkS, checkC, checkP, checkEff, pendingKey, pendingCounter, pendingS, pendingC, pendingP, pendingD } = this;
    let pending = 0;
    let passed = true;
    for (let i = 0; i < n; i++) {
      const check = checks[i]!;
      const d = check.durationMs;
      const key = counterKey(check);
      // A counter named twice in one group sees the cost of its earlier mention.
      let at = -1;
      for (let k = 0; k < pending; k++) if (pendingKey[k] === key) { at = k; break; }
      let s: number, c: number, p: number;
      let stored: Counter | undefined;
      if (at >= 0) {
        s = pendingS[at]!; c = pendingC[at]!; p = pendingP[at]!;
      } else {
        // sliding-window.ts rotate(): same window → as is; the next → shift; older → zeros; a
        // stored window ahead of now (the clock stepped back) is kept.
        const { memo } = check;
        if (memo !== undefined && memo.made === this.memoMark && (memo.value as Counter).live) stored = memo.value as Counter;
        else {
          stored = this.counters.get(key);
          if (memo !== undefined && stored !== undefined) {
            memo.made = this.memoMark;
            memo.value = stored;
          }
        }
        const seq = Math.floor(nowMs / d);
        if (stored === undefined) { s = seq; c = 0; p = 0; }
        else if (stored.s >= seq) { s = stored.s; c = stored.c; p = stored.p; }
        else if (stored.s === seq - 1) { s = seq; c = 0; p = stored.c; }
        else { s = seq; c = 0; p = 0; }
      }
      const eff = effectiveOf(s, c, p, nowMs, d);
      // A limit of 0 blocks: even a cost-0 read is denied (overrides of 0, inline limits of 0).
      if (!(check.limit > 0 && eff + check.cost <= check.limit)) passed = false;
      if (at >= 0) pendingC[at] = c + check.cost;
      else if (check.cost > 0) {
        pendingKey[pending] = key;
        pendingCounter[pending] = stored;
        pendingS[pending] = s; pendingC[pending] = c + check.cost; pendingP[pending] = p; pendingD[pending] = d;
        pending++;
      }
      checkS[i] = s; checkC[i] = c; checkP[i] = p; checkEff[i] = eff;
    }
    // Only counters that took a cost are written: cost-0 reads leave no state behind.
    if (passed) {
      for (let k = 0; k < pending; k++) {
        const counter = pendingCounter[k];
        if (counter === undefined) this.counters.set(pendingKey[k]!, new Counter(pendingS[k]!, pendingC[k]!, pendingP[k]!, pendingD[k]!));
        else { counter.s = pendingS[k]!; counter.c = pendingC[k]!; counter.p = pendingP[k]!; }
      }
    }
    for (let k = 0; k < pending; k++) {
      pendingCounter[k] = undefined;
      pendingKey[k] = '';
    }
    const results = new Array<LimitCheckResult>(n);
    for (let i = 0; i < n; i++) {
      const check = checks[i]!;
      const eff = checkEff[i]!;
      const own = check.limit > 0 && eff + check.cost <= check.limit;
      results[i] = {
        passed: own,
        limit: check.limit,
        // Unkey's rule: a denied check reports 0; a check that passed but was not committed
        // (a sibling was denied) reports what is still available; a committed one what is left.
        remaining: !own ? 0 : Math.max(0, check.limit - (passed ? eff + check.cost : eff)),
        resetAtMs: (checkS[i]! + 1) * check.durationMs,
        retryAfterMs: own ? 0 : check.limit === 0 ? Number.POSITIVE_INFINITY
          : retryAfter({ s: checkS[i]!, c: checkC[i]!, p: checkP[i]! }, nowMs, check.durationMs, check.limit, check.cost),
      };
    }
    return { passed, results };
  }

  private sweep(): void {
    const nowMs = this.now();
    for (const [key, counter] of this.counters) {
      if (Math.floor(nowMs / counter.durationMs) - counter.s >= 2) {
        this.counters.delete(key);
        counter.live = false;
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

/** The counter's key in the Map (made once when the check carries it). */
const counterKey = (check: LimitCheck): string => check.memoryKey ?? memoryKeyOf(check.counter, check.durationMs);
