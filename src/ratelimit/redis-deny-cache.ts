/**
 * The Redis limiter's local fast path, deny-only (it may never admit on its own). Within a
 * window a counter only grows, so the state Redis last returned for a key is a lower bound of the
 * truth; if even that bound denies a group at the current time, Redis would deny it too, and the
 * group is answered here without a Redis call. Nothing is ever admitted from here.
 *
 * Entries are taken when Redis denies a group (for every counter of that group, so the same
 * group next time can be answered whole), refreshed by every later reply that names the key, and
 * dropped once they can no longer weigh (two windows on) or when the cache is full (oldest first).
 * The limit is not part of an entry: it comes with each check, so a changed limit applies at once.
 *
 * A counter can go down after all: a multiLimit spanning slots gives back what it took when another
 * part was denied. So an entry is trusted for TRUST_MS only; then one check goes to Redis again and
 * refreshes it. A flood of denials costs at most one Redis call per counter per second per replica,
 * and a refund is noticed within a second.
 */
import { effective, retryAfter, rotate, type WindowState } from './sliding-window.js';
import type { KeyedCheck } from './redis-check-call.js';
import type { LimitCheckResult, LimitGroupResult } from './types.js';

interface Entry extends WindowState {
  readonly durationMs: number;
  /** Local time the state was taken (Date.now, whatever clock the limiter decides with). */
  readonly takenAtMs: number;
}

const TRUST_MS = 1_000;

export class DenyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Keeps the state Redis returned for a key of a denied group. */
  remember(key: string, state: WindowState, durationMs: number): void {
    this.entries.delete(key); // re-insert: Map order is the eviction order
    this.entries.set(key, { s: state.s, c: state.c, p: state.p, durationMs, takenAtMs: Date.now() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** A fresher state for a key already kept (any later reply naming it). */
  refresh(key: string, state: WindowState, durationMs: number): void {
    if (this.entries.has(key)) this.remember(key, state, durationMs);
  }

  /** A refund lowered the counter below what was kept. */
  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * The group's result if the cached lower bounds already deny it at `nowMs`; null when Redis has
   * to decide (a key not cached, or the bounds would let it pass). Same rules as memory-limiter.ts.
   */
  tryDeny(group: readonly KeyedCheck[], nowMs: number): LimitGroupResult | null {
    if (group.length === 0) return null;
    // Most groups are not denied: the first counter's entry decides that before anything is made.
    const first = this.entries.get(group[0]!.key);
    if (first === undefined || Date.now() - first.takenAtMs >= TRUST_MS) return null;
    const tentative = new Map<string, WindowState>();
    const evaluated: { state: WindowState; eff: number; own: boolean }[] = [];
    for (const { key, check } of group) {
      const entry = this.entries.get(key);
      if (!entry || Date.now() - entry.takenAtMs >= TRUST_MS) return null;
      if (Math.floor(nowMs / entry.durationMs) - entry.s >= 2) {
        this.entries.delete(key); // no longer weighs: Redis decides from zero
        return null;
      }
      const state = tentative.get(key) ?? rotate(entry, nowMs, check.durationMs);
      const eff = effective(state, nowMs, check.durationMs);
      const own = check.limit > 0 && eff + check.cost <= check.limit;
      if (check.cost > 0 || tentative.has(key)) tentative.set(key, { s: state.s, c: state.c + check.cost, p: state.p });
      evaluated.push({ state, eff, own });
    }
    if (evaluated.every((e) => e.own)) return null;
    const results = group.map(({ check }, i): LimitCheckResult => {
      const { state, eff, own } = evaluated[i]!;
      return {
        passed: own,
        limit: check.limit,
        remaining: own ? Math.max(0, check.limit - eff) : 0,
        resetAtMs: (state.s + 1) * check.durationMs,
        retryAfterMs: own ? 0 : check.limit === 0 ? Number.POSITIVE_INFINITY : retryAfter(state, nowMs, check.durationMs, check.limit, check.cost),
      };
    });
    return { passed: false, results };
  }
}
