import { describe, expect, it } from 'vitest';
import { effective, retryAfter, rotate, type WindowState } from '../../src/ratelimit/sliding-window.js';

describe('rotate', () => {
  const D = 1000;

  it('starts an empty state in the window containing now', () => {
    expect(rotate(undefined, 5_432, D)).toEqual({ s: 5, c: 0, p: 0 });
    expect(rotate(undefined, 5_000, D)).toEqual({ s: 5, c: 0, p: 0 });
    expect(rotate(undefined, 4_999, D)).toEqual({ s: 4, c: 0, p: 0 });
  });

  it('keeps the state within the same window', () => {
    expect(rotate({ s: 5, c: 3, p: 7 }, 5_999, D)).toEqual({ s: 5, c: 3, p: 7 });
  });

  it('moves the count into `p` on the next window', () => {
    expect(rotate({ s: 5, c: 3, p: 7 }, 6_000, D)).toEqual({ s: 6, c: 0, p: 3 });
    expect(rotate({ s: 5, c: 3, p: 7 }, 6_999, D)).toEqual({ s: 6, c: 0, p: 3 });
  });

  it('forgets everything two or more windows later', () => {
    expect(rotate({ s: 5, c: 3, p: 7 }, 7_000, D)).toEqual({ s: 7, c: 0, p: 0 });
    expect(rotate({ s: 5, c: 3, p: 7 }, 1_000_000, D)).toEqual({ s: 1000, c: 0, p: 0 });
  });

  it('never rolls backwards when the clock steps back (state.s > seq keeps the stored window)', () => {
    expect(rotate({ s: 6, c: 4, p: 2 }, 5_950, D)).toEqual({ s: 6, c: 4, p: 2 });
    expect(rotate({ s: 9, c: 4, p: 2 }, 1_000, D)).toEqual({ s: 9, c: 4, p: 2 });
  });
});

describe('effective', () => {
  const D = 1000;

  it('counts the whole previous window at the window start and none of it at the end', () => {
    expect(effective({ s: 3, c: 2, p: 10 }, 3_000, D)).toBe(12);
    expect(effective({ s: 3, c: 2, p: 10 }, 3_999, D)).toBe(2 + Math.floor(10 / 1000));
  });

  it('weights the previous window by the share left, rounded down', () => {
    expect(effective({ s: 3, c: 0, p: 10 }, 3_100, D)).toBe(9);
    expect(effective({ s: 3, c: 1, p: 10 }, 3_500, D)).toBe(6);
    expect(effective({ s: 3, c: 0, p: 3 }, 3_001, D)).toBe(2); // 3 · 999/1000 = 2.997
    expect(effective({ s: 3, c: 0, p: 7 }, 3_333, D)).toBe(4); // 7 · 667/1000 = 4.669
  });

  it('equals c when there is no previous window', () => {
    expect(effective({ s: 3, c: 5, p: 0 }, 3_200, D)).toBe(5);
  });

  it('after a clock step back counts the stored window in full (never less than c + p)', () => {
    expect(effective({ s: 6, c: 4, p: 3 }, 5_950, D)).toBe(7);
    expect(effective({ s: 6, c: 4, p: 3 }, 100, D)).toBe(7);
  });

  it('stays within c..c+p for any time around the window', () => {
    const state: WindowState = { s: 10, c: 5, p: 9 };
    let previous = Number.POSITIVE_INFINITY;
    for (let now = 8_000; now < 11_000; now += 7) {
      const eff = effective(state, now, D);
      expect(eff).toBeGreaterThanOrEqual(5);
      expect(eff).toBeLessThanOrEqual(14);
      expect(eff).toBeLessThanOrEqual(previous); // it only decays as time moves on
      previous = eff;
    }
  });
});

/** Smallest wait > 0 after which `cost` passes with no other traffic, by simulation. */
function simulatedWait(state: WindowState, now: number, D: number, limit: number, cost: number): number {
  for (let wait = 1; wait <= 4 * D + 1; wait++) {
    const t = now + wait;
    if (effective(rotate(state, t, D), t, D) + cost <= limit) return wait;
  }
  return Number.POSITIVE_INFINITY;
}

describe('retryAfter', () => {
  it('is 0 when the cost passes now', () => {
    expect(retryAfter({ s: 1, c: 3, p: 0 }, 1_500, 1000, 5, 2)).toBe(0);
    expect(retryAfter({ s: 1, c: 5, p: 0 }, 1_500, 1000, 5, 0)).toBe(0);
  });

  it('is Infinity when the cost exceeds the limit', () => {
    expect(retryAfter({ s: 1, c: 0, p: 0 }, 1_500, 1000, 5, 6)).toBe(Number.POSITIVE_INFINITY);
  });

  it('waits for the decay of the previous window inside the current one', () => {
    // c = 1, p = 10, cost 4, L = 10: need floor(10 · left / 1000) ≤ 5 ⇔ left ≤ 599 → t = 1401.
    expect(retryAfter({ s: 1, c: 1, p: 10 }, 1_100, 1000, 10, 4)).toBe(301);
  });

  it('waits for the next window and then the decay of the old count', () => {
    // c = 3, L = 3, cost 1: next window from 1000, floor(3 · left / 1000) ≤ 2 ⇔ left ≤ 999 → t = 1001.
    expect(retryAfter({ s: 0, c: 3, p: 0 }, 200, 1000, 3, 1)).toBe(801);
    // c = 8, L = 10, cost 5: floor(8 · left / 1000) ≤ 5 ⇔ left ≤ 749 → t = 1251.
    expect(retryAfter({ s: 0, c: 8, p: 0 }, 100, 1000, 10, 5)).toBe(1151);
  });

  it('counts from the stored window after a clock step back', () => {
    // Stored window 2 (2000..3000), clock at 1900: c = 3 fills L = 3, so wait for 3001.
    expect(retryAfter({ s: 2, c: 3, p: 0 }, 1_900, 1000, 3, 1)).toBe(1_101);
    // c = 1, p = 10 in window 2, cost 4: decays inside window 2 at 2401.
    expect(retryAfter({ s: 2, c: 1, p: 10 }, 1_950, 1000, 10, 4)).toBe(451);
  });

  it('is exactly the smallest passing wait for every small state (exhaustive, incl. clock steps back)', () => {
    let checked = 0;
    for (const D of [10, 7]) {
      for (let limit = 0; limit <= 6; limit++) {
        for (let c = 0; c <= limit + 2; c++) {
          for (let p = 0; p <= limit + 2; p++) {
            for (let cost = 0; cost <= limit + 1; cost++) {
              // now from one window before the stored one (clock stepped back) to its last ms.
              for (let now = 4 * D; now < 6 * D; now++) {
                const state: WindowState = { s: 5, c, p };
                const got = retryAfter(state, now, D, limit, cost);
                const passesNow = effective(rotate(state, now, D), now, D) + cost <= limit;
                const want = passesNow ? 0 : simulatedWait(state, now, D, limit, cost);
                if (got !== want) {
                  expect.fail(`retryAfter(${JSON.stringify(state)}, now ${now}, D ${D}, L ${limit}, cost ${cost}) = ${got}, expected ${want}`);
                }
                checked++;
              }
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(50_000);
  });

  it('is exact for large limits and durations (random sample)', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const D = 60_000;
    for (let i = 0; i < 300; i++) {
      const limit = 1 + rand(5000);
      const state: WindowState = { s: 100, c: rand(limit + 1), p: rand(limit + 1) };
      const cost = 1 + rand(limit);
      const now = 100 * D + rand(D);
      const got = retryAfter(state, now, D, limit, cost);
      if (got === 0) {
        expect(effective(state, now, D) + cost).toBeLessThanOrEqual(limit);
        continue;
      }
      const at = (t: number): boolean => effective(rotate(state, t, D), t, D) + cost <= limit;
      expect(at(now + got), `case ${i}: ${JSON.stringify({ state, now, limit, cost, got })}`).toBe(true);
      expect(at(now + got - 1), `case ${i}: ${JSON.stringify({ state, now, limit, cost, got })}`).toBe(false);
    }
  });
});
