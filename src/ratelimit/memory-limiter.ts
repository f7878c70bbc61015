/**
 * The embedded limiter: exact, in-process, synchronous inside `limit()`, so concurrent requests
 * can never interleave between a check and its commit. Counters live in a Map and are swept once
 * they are older than two windows, so memory follows the set of active counters.
 */
import { effective, retryAfter, rotate, type WindowState } from './sliding-window.js';
import type { LimitCheck, LimitCheckResult, LimitGroup, LimitGroupResult, RateLimiter } from './types.js';

export interface MemoryLimiterOptions {
  /** Clock in unix ms; injectable for tests. */
  readonly now?: () => number;
  /** How often stale counters are removed. */
  readonly sweepIntervalMs?: number;
}

interface Counter extends WindowState {
  durationMs: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

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
    return groups.map((group) => this.limitGroup(group, nowMs));
  }

  /** Number of live counters (for tests and metrics). */
  get size(): number {
    return this.counters.size;
  }

  private limitGroup(group: LimitGroup, nowMs: number): LimitGroupResult {
    const { checks } = group;
    const n = checks.length;
    // Tentative states, by counter key: a counter named twice in one group sees the cost of its
    // earlier mention. Arrays, not a Map: groups are small and this runs on every verification.
    const keys: string[] = [];
    const tentative: Counter[] = [];
    const states = new Array<WindowState>(n);
    const effs = new Array<number>(n);
    let passed = true;
    for (let i = 0; i < n; i++) {
      const check = checks[i]!;
      const key = counterKey(check);
      const at = keys.indexOf(key);
      const state = at >= 0 ? tentative[at]! : rotate(this.counters.get(key), nowMs, check.durationMs);
      const eff = effective(state, nowMs, check.durationMs);
      // A limit of 0 blocks: even a cost-0 read is denied (overrides of 0, inline limits of 0).
      if (!(check.limit > 0 && eff + check.cost <= check.limit)) passed = false;
      if (at >= 0) tentative[at] = { s: state.s, c: state.c + check.cost, p: state.p, durationMs: check.durationMs };
      else if (check.cost > 0) {
        keys.push(key);
        tentative.push({ s: state.s, c: state.c + check.cost, p: state.p, durationMs: check.durationMs });
      }
      states[i] = state;
      effs[i] = eff;
    }
    // Only counters that took a cost are written: cost-0 reads leave no state behind.
    if (passed) for (let k = 0; k < keys.length; k++) this.counters.set(keys[k]!, tentative[k]!);
    const results = new Array<LimitCheckResult>(n);
    for (let i = 0; i < n; i++) {
      const check = checks[i]!;
      const state = states[i]!;
      const eff = effs[i]!;
      const own = check.limit > 0 && eff + check.cost <= check.limit;
      results[i] = {
        passed: own,
        limit: check.limit,
        // Unkey's rule: a denied check reports 0; a check that passed but was not committed
        // (a sibling was denied) reports what is still available; a committed one what is left.
        remaining: !own ? 0 : Math.max(0, check.limit - (passed ? eff + check.cost : eff)),
        resetAtMs: (state.s + 1) * check.durationMs,
        retryAfterMs: own ? 0 : check.limit === 0 ? Number.POSITIVE_INFINITY : retryAfter(state, nowMs, check.durationMs, check.limit, check.cost),
      };
    }
    return { passed, results };
  }

  private sweep(): void {
    const nowMs = this.now();
    for (const [key, counter] of this.counters) {
      if (Math.floor(nowMs / counter.durationMs) - counter.s >= 2) this.counters.delete(key);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}

/** The counter's key in the Map: its name and window length (made once when the check carries it). */
export const counterKey = (check: LimitCheck): string => check.memoryKey ?? `${check.counter}\u0000${check.durationMs}`;
