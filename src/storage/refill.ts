/**
 * Credit refills, applied lazily: a counter is brought up to date whenever it is read or changed,
 * instead of by a daily job (Unkey's job; the lazy form gives the same answers, since nobody can
 * read a counter without bringing it up to date). Refills happen at UTC midnight: `daily` every day, `monthly` on `refillDay`, or on
 * the last day of months shorter than that. A refill resets `remaining` to `amount` (it never adds,
 * and a balance already at or above the amount is kept); several missed refills are one refill.
 *
 * Pure functions: every storage backend calls them inside its atomic update of the counter.
 * The Redis backend cannot call them inside Redis: lua/credits-change.lua repeats this rule step
 * for step. Keep the two in step; test/contracts/redis-credits-refill.test.ts compares them.
 */
import type { CreditsRecord, CreditsRefill } from './records.js';

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The refill moment of the month that starts at (year, month), UTC. */
function monthlyMoment(year: number, month: number, refillDay: number): number {
  return Date.UTC(year, month, Math.min(refillDay, daysInMonth(year, month)));
}

/** The latest scheduled refill moment at or before `nowMs`. */
export function latestRefillMoment(refill: CreditsRefill, nowMs: number): number {
  if (refill.interval === 'daily' || refill.refillDay === undefined) return Math.floor(nowMs / DAY_MS) * DAY_MS;
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const thisMonth = monthlyMoment(year, month, refill.refillDay);
  return thisMonth <= nowMs ? thisMonth : monthlyMoment(year, month - 1, refill.refillDay);
}

/**
 * The counter as it stands at `nowMs`: refilled if a refill moment passed since `lastRefillAt`.
 * Returns the same object when nothing is due. A counter without `lastRefillAt` has no refill
 * schedule yet (it is set when a refill is configured), so nothing is ever due for it.
 */
export function refilled(credits: CreditsRecord, nowMs: number): CreditsRecord {
  const { refill, lastRefillAt } = credits;
  if (!refill || lastRefillAt === undefined) return credits;
  if (latestRefillMoment(refill, nowMs) <= lastRefillAt) return credits;
  return { ...credits, remaining: Math.max(credits.remaining, refill.amount), lastRefillAt: nowMs };
}
