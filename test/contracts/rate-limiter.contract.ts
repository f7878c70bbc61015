/**
 * Behavioural contract of the RateLimiter interface (src/ratelimit/types.ts): the sliding-window
 * arithmetic of src/ratelimit/sliding-window.ts, asserted exactly. Every implementation runs it
 * with an injected clock: `make(now)` must build a limiter that reads time only from `now()`.
 * `remaining` follows the interface doc in src/ratelimit/types.ts: a denied check reports 0 (not
 * the limit minus the window's effective count, which a denied check never changes).
 *
 * Counter names are unique per test, so a backend shared between tests (Redis) needs no flushing.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { LimitCheck, LimitCheckResult, LimitGroupResult, RateLimiter } from '../../src/ratelimit/types.js';
import { prng } from '../support/prng.js';

/** An epoch-aligned base time (a multiple of every duration used here). */
const BASE = 1_700_000_040_000;

interface Clock {
  t: number;
}

const check = (counter: string, limit: number, durationMs: number, cost = 1): LimitCheck => ({ counter, limit, durationMs, cost });


export function describeRateLimiter(impl: string, make: (now: () => number) => RateLimiter): void {
  describe(`RateLimiter contract: ${impl}`, () => {
    const open: RateLimiter[] = [];
    afterEach(async () => {
      for (const limiter of open.splice(0)) await limiter.close();
    });

    function setup(start = BASE): { clock: Clock; limiter: RateLimiter; name: (label?: string) => string } {
      const clock: Clock = { t: start };
      const limiter = make(() => clock.t);
      open.push(limiter);
      const prefix = `contract:${randomUUID()}`;
      return { clock, limiter, name: (label = 'c') => `${prefix}:${label}` };
    }

    async function group(limiter: RateLimiter, ...checks: LimitCheck[]): Promise<LimitGroupResult> {
      const results = await limiter.limit([{ checks }]);
      expect(results).toHaveLength(1);
      const [only] = results;
      expect(only!.results).toHaveLength(checks.length);
      return only!;
    }

    async function single(limiter: RateLimiter, c: LimitCheck): Promise<LimitCheckResult & { group: boolean }> {
      const g = await group(limiter, c);
      const r = g.results[0]!;
      // With one check, the group outcome is the check's outcome.
      expect(g.passed).toBe(r.passed);
      return { ...r, group: g.passed };
    }

    /** Remaining capacity without consuming (a cost-0 read). */
    async function available(limiter: RateLimiter, counter: string, limit: number, durationMs: number): Promise<number> {
      const r = await single(limiter, check(counter, limit, durationMs, 0));
      return r.remaining;
    }

    it('first check passes with remaining = limit − cost and reset at the end of the aligned window', async () => {
      const { clock, limiter, name } = setup(BASE + 12_345);
      const r = await single(limiter, check(name(), 10, 1000, 3));
      expect(r).toMatchObject({ passed: true, limit: 10, remaining: 7, resetAtMs: (Math.floor(clock.t / 1000) + 1) * 1000, retryAfterMs: 0 });
      expect(r.resetAtMs).toBe(BASE + 13_000);

      const minute = await single(limiter, check(name('minute'), 100, 60_000, 1));
      expect(minute.remaining).toBe(99);
      expect(minute.resetAtMs).toBe((Math.floor(clock.t / 60_000) + 1) * 60_000);
    });

    it('resetAtMs is the window end even exactly at a window start and at its last millisecond', async () => {
      const { clock, limiter, name } = setup(BASE);
      expect((await single(limiter, check(name(), 5, 1000))).resetAtMs).toBe(BASE + 1000);
      clock.t = BASE + 999;
      expect((await single(limiter, check(name(), 5, 1000))).resetAtMs).toBe(BASE + 1000);
      clock.t = BASE + 1000;
      expect((await single(limiter, check(name(), 5, 1000))).resetAtMs).toBe(BASE + 2000);
    });

    it('admits exactly `limit` units within a window, then denies', async () => {
      const { clock, limiter, name } = setup(BASE + 100);
      const c = check(name(), 5, 1000);
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await single(limiter, c);
        expect(r.passed).toBe(true);
        remaining.push(r.remaining);
        clock.t += 50;
      }
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      const denied = await single(limiter, c);
      expect(denied.passed).toBe(false);
      expect(denied.remaining).toBe(0);
      expect(denied.retryAfterMs).toBeGreaterThan(0);
      // Still denied for the rest of the window.
      clock.t = BASE + 999;
      expect((await single(limiter, c)).passed).toBe(false);
    });

    it('cost 0 never consumes and passes even at exactly the limit', async () => {
      const { limiter, name } = setup(BASE + 10);
      const counter = name();
      for (let i = 0; i < 20; i++) {
        const r = await single(limiter, check(counter, 5, 1000, 0));
        expect(r).toMatchObject({ passed: true, remaining: 5, retryAfterMs: 0 });
      }
      for (let i = 0; i < 5; i++) expect((await single(limiter, check(counter, 5, 1000, 1))).passed).toBe(true);
      const atLimit = await single(limiter, check(counter, 5, 1000, 0));
      expect(atLimit).toMatchObject({ passed: true, remaining: 0, retryAfterMs: 0 });
      expect((await single(limiter, check(counter, 5, 1000, 1))).passed).toBe(false);
    });

    it('cost above the limit never passes and consumes nothing', async () => {
      const { clock, limiter, name } = setup(BASE + 10);
      const counter = name();
      const big = await single(limiter, check(counter, 5, 1000, 6));
      expect(big.passed).toBe(false);
      expect(big.remaining).toBe(0); // a denied check reports 0 (types.ts)
      expect(big.retryAfterMs).toBeGreaterThan(0);
      expect(await available(limiter, counter, 5, 1000)).toBe(5);
      // Not even on an empty counter two windows later.
      clock.t += 5000;
      expect((await single(limiter, check(counter, 5, 1000, 6))).passed).toBe(false);
      for (let i = 0; i < 5; i++) expect((await single(limiter, check(counter, 5, 1000))).passed).toBe(true);
    });

    it('a limit of 0 blocks: every cost is denied, 0 included, and a group with it commits nothing', async () => {
      const { limiter, name } = setup(BASE + 10);
      for (const cost of [1, 0]) {
        const r = await single(limiter, check(name(), 0, 1000, cost));
        expect(r.passed).toBe(false);
        expect(r.remaining).toBe(0);
      }
      const other = name('other');
      expect((await group(limiter, check(other, 5, 1000, 1), check(name('zero'), 0, 1000, 0))).passed).toBe(false);
      expect((await single(limiter, check(other, 5, 1000, 0))).remaining).toBe(5);
    });

    it('a group commits all or nothing: one failing check leaves every other counter unchanged', async () => {
      const { limiter, name } = setup(BASE + 200);
      const a = name('a');
      const b = name('b');
      const c = name('c');
      // Exhaust b.
      expect((await single(limiter, check(b, 2, 1000, 2))).passed).toBe(true);

      const g = await group(limiter, check(a, 10, 1000, 3), check(b, 2, 1000, 1), check(c, 4, 60_000, 2));
      expect(g.passed).toBe(false);
      expect(g.results.map((r) => r.passed)).toEqual([true, false, true]);
      // Not committed: remaining is what is still available.
      expect(g.results.map((r) => r.remaining)).toEqual([10, 0, 4]);
      expect(g.results[0]!.retryAfterMs).toBe(0);
      expect(g.results[1]!.retryAfterMs).toBeGreaterThan(0);

      expect(await available(limiter, a, 10, 1000)).toBe(10);
      expect(await available(limiter, b, 2, 1000)).toBe(0);
      expect(await available(limiter, c, 4, 60_000)).toBe(4);

      // A group where everything passes commits every check.
      const ok = await group(limiter, check(a, 10, 1000, 3), check(c, 4, 60_000, 2));
      expect(ok.passed).toBe(true);
      expect(ok.results.map((r) => r.remaining)).toEqual([7, 2]);
      expect(await available(limiter, a, 10, 1000)).toBe(7);
      expect(await available(limiter, c, 4, 60_000)).toBe(2);
    });

    it('remaining: committed → what is left after the cost; passed but not committed → what is still there; denied → 0', async () => {
      const { limiter, name } = setup(BASE + 10);
      const a = name('a');
      const b = name('b');
      expect((await single(limiter, check(a, 10, 1000, 4))).remaining).toBe(6); // committed: 10 − 0 − 4
      expect((await single(limiter, check(b, 3, 1000, 2))).remaining).toBe(1);
      const g = await group(limiter, check(a, 10, 1000, 5), check(b, 3, 1000, 2));
      expect(g.passed).toBe(false);
      expect(g.results.map((r) => [r.passed, r.remaining])).toEqual([[true, 6], [false, 0]]);
      expect(await available(limiter, a, 10, 1000)).toBe(6);
      expect(await available(limiter, b, 3, 1000)).toBe(1);
      const big = await single(limiter, check(a, 10, 1000, 7)); // alone, denied: 4 + 7 > 10
      expect([big.passed, big.remaining]).toEqual([false, 0]);
      expect(await available(limiter, a, 10, 1000)).toBe(6);
    });

    it('a counter listed twice in one group counts both costs', async () => {
      const { limiter, name } = setup(BASE + 300);
      const counter = name();
      // 3 + 3 > 5: the group fails although each mention alone would fit, and nothing is consumed.
      const over = await group(limiter, check(counter, 5, 1000, 3), check(counter, 5, 1000, 3));
      expect(over.passed).toBe(false);
      expect(over.results[1]!.passed).toBe(false);
      expect(await available(limiter, counter, 5, 1000)).toBe(5);

      // 2 + 3 = 5 fits exactly; both are consumed and the last remaining reflects both.
      const exact = await group(limiter, check(counter, 5, 1000, 2), check(counter, 5, 1000, 3));
      expect(exact.passed).toBe(true);
      expect(exact.results.map((r) => r.remaining)).toEqual([3, 0]);
      expect(await available(limiter, counter, 5, 1000)).toBe(0);
    });

    it('window rotation weights the previous window by the share still inside the sliding window (floor)', async () => {
      const { clock, limiter, name } = setup(BASE + 500);
      const counter = name();
      const c = check(counter, 10, 1000);
      for (let i = 0; i < 10; i++) expect((await single(limiter, c)).passed).toBe(true);

      // Exactly at the start of the next window the whole previous window still counts.
      clock.t = BASE + 1000;
      expect(await available(limiter, counter, 10, 1000)).toBe(0);
      expect((await single(limiter, c)).passed).toBe(false);

      // 10% into the next window: eff = 0 + floor(10 · 0.9) = 9, so exactly one unit passes.
      clock.t = BASE + 1100;
      expect(await available(limiter, counter, 10, 1000)).toBe(1);
      const one = await single(limiter, c);
      expect(one).toMatchObject({ passed: true, remaining: 0, resetAtMs: BASE + 2000 });
      expect((await single(limiter, c)).passed).toBe(false);

      // Half-way: eff = 1 + floor(10 · 0.5) = 6, so four pass.
      clock.t = BASE + 1500;
      expect(await available(limiter, counter, 10, 1000)).toBe(4);
      for (let i = 0; i < 4; i++) expect((await single(limiter, c)).passed).toBe(true);
      expect((await single(limiter, c)).passed).toBe(false);

      // Floor, not round: 10 · 0.01 = 0.1 → 0 at 99% into the window (eff = 5 + 0).
      clock.t = BASE + 1990;
      expect(await available(limiter, counter, 10, 1000)).toBe(5);
    });

    it('a counter is empty two windows after its last use', async () => {
      const { clock, limiter, name } = setup(BASE + 999);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 10))).passed).toBe(true);
      clock.t = BASE + 2000;
      expect(await available(limiter, counter, 10, 1000)).toBe(10);
      expect((await single(limiter, check(counter, 10, 1000, 10))).passed).toBe(true);

      // Skipping many windows is the same as skipping two.
      clock.t = BASE + 2000 + 1000 * 1000 + 1;
      expect(await available(limiter, counter, 10, 1000)).toBe(10);
    });

    it('the same counter name with different durations is counted separately', async () => {
      const { limiter, name } = setup(BASE + 10);
      const counter = name();
      expect((await single(limiter, check(counter, 2, 1000, 2))).passed).toBe(true);
      expect((await single(limiter, check(counter, 2, 1000, 1))).passed).toBe(false);
      const minute = await single(limiter, check(counter, 2, 60_000, 2));
      expect(minute.passed).toBe(true);
      expect(minute.remaining).toBe(0);
      expect(await available(limiter, name('other'), 2, 1000)).toBe(2);
    });

    it('a changed limit applies immediately to the same counter', async () => {
      const { limiter, name } = setup(BASE + 10);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 4))).passed).toBe(true);
      expect(await available(limiter, counter, 5, 1000)).toBe(1);
      expect((await single(limiter, check(counter, 3, 1000, 1))).passed).toBe(false);
      expect((await single(limiter, check(counter, 20, 1000, 16))).passed).toBe(true);
    });

    /**
     * Asserts retryAfterMs of a denied check is exact: one millisecond less still denies, the
     * announced time passes. Leaves the clock at the passing time (the check consumed there).
     */
    async function expectExactRetryAfter(limiter: RateLimiter, clock: Clock, c: LimitCheck, expected?: number): Promise<number> {
      const denied = await single(limiter, c);
      expect(denied.passed, `denied at ${clock.t}`).toBe(false);
      const wait = denied.retryAfterMs;
      expect(Number.isFinite(wait) && wait > 0, `retryAfterMs ${wait}`).toBe(true);
      if (expected !== undefined) expect(wait).toBe(expected);
      const deniedAt = clock.t;
      clock.t = deniedAt + wait - 1;
      const early = await single(limiter, c);
      expect(early.passed, `still denied ${wait - 1} ms after ${deniedAt} (retryAfterMs ${wait})`).toBe(false);
      expect(early.retryAfterMs).toBe(1);
      clock.t = deniedAt + wait;
      const onTime = await single(limiter, c);
      expect(onTime.passed, `passes ${wait} ms after ${deniedAt}`).toBe(true);
      return wait;
    }

    it('retryAfterMs: full window, wait for the next window and the decay of the old count', async () => {
      const { clock, limiter, name } = setup(BASE + 200);
      const counter = name();
      expect((await single(limiter, check(counter, 3, 1000, 3))).passed).toBe(true);
      // Next window: floor(3 · left / 1000) ≤ 2 ⇔ left ≤ 999 → BASE + 1001.
      await expectExactRetryAfter(limiter, clock, check(counter, 3, 1000), 801);
      expect(clock.t).toBe(BASE + 1001);
    });

    it('retryAfterMs with cost > 1 that only fits after the window ends', async () => {
      const { clock, limiter, name } = setup(BASE + 100);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 8))).passed).toBe(true);
      // 8 + 5 > 10 → next window, until floor(8 · left / 1000) ≤ 5 ⇔ left ≤ 749 → BASE + 1251.
      await expectExactRetryAfter(limiter, clock, check(counter, 10, 1000, 5), 1151);
    });

    it('retryAfterMs inside a window that still carries a previous window', async () => {
      const { clock, limiter, name } = setup(BASE + 500);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 10))).passed).toBe(true);
      clock.t = BASE + 1100; // eff = 9
      expect((await single(limiter, check(counter, 10, 1000, 1))).passed).toBe(true); // c = 1, p = 10
      // cost 4: need 1 + floor(10 · left / 1000) + 4 ≤ 10 ⇔ left ≤ 599 → BASE + 1401.
      await expectExactRetryAfter(limiter, clock, check(counter, 10, 1000, 4), 301);
    });

    it('retryAfterMs when the current window is too full and the previous window also weighs', async () => {
      const { clock, limiter, name } = setup(BASE + 300);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 6))).passed).toBe(true);
      clock.t = BASE + 1200; // eff = floor(6 · 0.8) = 4
      expect((await single(limiter, check(counter, 10, 1000, 6))).passed).toBe(true); // c = 6
      // 6 + 5 > 10 → next window: floor(6 · left / 1000) ≤ 5 ⇔ left ≤ 999 → BASE + 2001.
      await expectExactRetryAfter(limiter, clock, check(counter, 10, 1000, 5), 801);
      // A minute-long window behaves the same way at its own scale.
      const minute = name('minute');
      clock.t = BASE + 30_000;
      expect((await single(limiter, check(minute, 4, 60_000, 4))).passed).toBe(true);
      await expectExactRetryAfter(limiter, clock, check(minute, 4, 60_000, 2));
    });

    it('retryAfterMs is exact on random traffic (seeded)', async () => {
      for (const [seed, limit, durationMs] of [[1, 10, 1000], [2, 3, 1000], [3, 50, 60_000], [4, 7, 1000]] as const) {
        const { clock, limiter, name } = setup(BASE + 17);
        const rand = prng(seed);
        const counter = name(`rand${seed}`);
        let denials = 0;
        for (let step = 0; step < 150; step++) {
          clock.t += Math.floor(rand() * rand() * durationMs * 1.3);
          const cost = Math.floor(rand() * (limit + 1));
          const c = check(counter, limit, durationMs, cost);
          const r = await single(limiter, c);
          if (!r.passed) {
            denials++;
            const wait = r.retryAfterMs;
            expect(Number.isFinite(wait) && wait > 0, `seed ${seed} step ${step}: retryAfterMs ${wait}`).toBe(true);
            const deniedAt = clock.t;
            clock.t = deniedAt + wait - 1;
            expect((await single(limiter, c)).passed, `seed ${seed} step ${step}: cost ${cost} passed before retryAfterMs ${wait} (at ${deniedAt})`).toBe(false);
            clock.t = deniedAt + wait;
            expect((await single(limiter, c)).passed, `seed ${seed} step ${step}: cost ${cost} denied after retryAfterMs ${wait} (at ${deniedAt})`).toBe(true);
          }
        }
        // The traffic is heavy enough that the property was actually exercised.
        expect(denials).toBeGreaterThan(5);
      }
    });

    it('groups are evaluated in order: later groups see earlier commits, not failed ones', async () => {
      const { limiter, name } = setup(BASE + 10);
      const counter = name();
      const results = await limiter.limit([
        { checks: [check(counter, 5, 1000, 3)] },
        { checks: [check(counter, 5, 1000, 3)] },
        { checks: [check(counter, 5, 1000, 2)] },
      ]);
      expect(results.map((g) => g.passed)).toEqual([true, false, true]);
      expect(results.map((g) => g.results[0]!.remaining)).toEqual([2, 0, 0]);

      const other = name('other');
      const second = await limiter.limit([
        { checks: [check(other, 5, 1000, 6)] }, // can never pass
        { checks: [check(other, 5, 1000, 1), check(name('full'), 0, 1000, 1)] }, // sibling fails
        { checks: [check(other, 5, 1000, 5)] },
      ]);
      expect(second.map((g) => g.passed)).toEqual([false, false, true]);
      expect(await available(limiter, other, 5, 1000)).toBe(0);
    });

    it('an empty list of groups yields an empty list', async () => {
      const { limiter } = setup();
      expect(await limiter.limit([])).toEqual([]);
    });

    it('concurrent calls never admit more than the limit', async () => {
      const { limiter, name } = setup(BASE + 10);
      const counter = name();
      const outcomes = await Promise.all(Array.from({ length: 100 }, () => single(limiter, check(counter, 30, 60_000))));
      expect(outcomes.filter((r) => r.passed)).toHaveLength(30);
      expect(outcomes.filter((r) => r.passed).map((r) => r.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(await available(limiter, counter, 30, 60_000)).toBe(0);
    });

    it('a clock step backwards never loses counts', async () => {
      const { clock, limiter, name } = setup(BASE + 1900);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 6))).passed).toBe(true); // window 1
      // Back within the same window.
      clock.t = BASE + 1050;
      expect(await available(limiter, counter, 10, 1000)).toBe(4);
      // Back across the boundary into window 0: the stored window is kept, not rolled back.
      clock.t = BASE + 950;
      expect(await available(limiter, counter, 10, 1000)).toBe(4);
      expect((await single(limiter, check(counter, 10, 1000, 4))).passed).toBe(true);
      expect((await single(limiter, check(counter, 10, 1000, 1))).passed).toBe(false);
      // Forward again: those 10 belong to window 1 and weigh on window 2 (eff = floor(10 · 0.9) = 9).
      clock.t = BASE + 2100;
      expect(await available(limiter, counter, 10, 1000)).toBe(1);
      expect((await single(limiter, check(counter, 10, 1000, 1))).passed).toBe(true);
      expect((await single(limiter, check(counter, 10, 1000, 1))).passed).toBe(false);
    });

    it('a clock step backwards keeps the current window and its previous-window weight', async () => {
      const { clock, limiter, name } = setup(BASE + 500);
      const counter = name();
      expect((await single(limiter, check(counter, 10, 1000, 8))).passed).toBe(true); // window 0: 8
      clock.t = BASE + 1500;
      expect((await single(limiter, check(counter, 10, 1000, 2))).passed).toBe(true); // window 1: 2 + floor(8·0.5)
      clock.t = BASE + 1450; // a 50 ms step back
      expect((await single(limiter, check(counter, 10, 1000, 5))).passed).toBe(false);
      clock.t = BASE + 900; // back into window 0: at least the 10 units admitted so far still count
      expect((await single(limiter, check(counter, 10, 1000, 1))).passed).toBe(false);
    });

    it('matches the reference sliding-window arithmetic on random multi-limit traffic (seeded)', async () => {
      const { clock, limiter, name } = setup(BASE + 3);
      const rand = prng(42);
      const limits = [
        { counter: name('x'), limit: 8, durationMs: 1000 },
        { counter: name('y'), limit: 3, durationMs: 1000 },
        { counter: name('z'), limit: 20, durationMs: 60_000 },
        { counter: name('x'), limit: 5, durationMs: 60_000 },
      ];
      const model = new Map<string, { s: number; c: number; p: number }>();
      let admitted = 0;
      for (let step = 0; step < 400; step++) {
        clock.t += Math.floor(rand() * 400);
        const chosen = limits.filter(() => rand() < 0.6);
        if (chosen.length === 0) continue;
        const checks = chosen.map((l) => check(l.counter, l.limit, l.durationMs, Math.floor(rand() * 4)));
        const [got] = await limiter.limit([{ checks }]);

        const now = clock.t;
        const expected = checks.map((c) => {
          const key = `${c.counter}|${c.durationMs}`;
          const seq = Math.floor(now / c.durationMs);
          const stored = model.get(key);
          const state = !stored || stored.s < seq - 1 ? { s: seq, c: 0, p: 0 }
            : stored.s === seq - 1 ? { s: seq, c: 0, p: stored.c } : stored;
          const elapsed = now - state.s * c.durationMs;
          const eff = state.c + Math.floor((state.p * (c.durationMs - elapsed)) / c.durationMs);
          return { key, state, eff, passed: eff + c.cost <= c.limit, resetAtMs: (seq + 1) * c.durationMs };
        });
        const passed = expected.every((e) => e.passed);
        if (passed) {
          admitted++;
          expected.forEach((e, i) => model.set(e.key, { ...e.state, c: e.state.c + checks[i]!.cost }));
        }
        const context = `step ${step} at ${now}: ${JSON.stringify(checks.map((c) => [c.counter.slice(-1), c.durationMs, c.cost]))}`;
        expect(got!.passed, context).toBe(passed);
        expect(got!.results.map((r) => ({ passed: r.passed, limit: r.limit, remaining: r.remaining, resetAtMs: r.resetAtMs })), context)
          .toEqual(expected.map((e, i) => ({
            passed: e.passed,
            limit: checks[i]!.limit,
            remaining: e.passed ? Math.max(0, checks[i]!.limit - e.eff - (passed ? checks[i]!.cost : 0)) : 0,
            resetAtMs: e.resetAtMs,
          })));
      }
      expect(admitted).toBeGreaterThan(50);
      expect(admitted).toBeLessThan(390);
    });
  });
}
