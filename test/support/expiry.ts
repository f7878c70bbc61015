/**
 * Checks for entries that expire a random share early (TTL_SPREAD of 25 %): `total` entries
 * stored at time 0 are all alive just before 75 % of the TTL, some but not all at 87.5 %, and
 * none at the TTL.
 */
import { expect } from 'vitest';

export function expectSpreadExpiry(ttlMs: number, total: number, setNow: (ms: number) => void, alive: () => number): void {
  setNow(ttlMs * 0.75 - 1);
  expect(alive()).toBe(total);
  setNow(ttlMs * 0.875);
  const some = alive();
  // Each entry has an even chance here: all or none of them has odds of 2 in 2^total.
  expect(some).toBeGreaterThan(0);
  expect(some).toBeLessThan(total);
  setNow(ttlMs);
  expect(alive()).toBe(0);
}
