import { describe, expect, test } from 'vitest';
import { latestRefillMoment, refilled } from '../../src/storage/refill.js';
import type { CreditsRecord } from '../../src/storage/records.js';

const utc = (iso: string): number => Date.parse(`${iso}Z`);

describe('credit refills (lazy, UTC midnight)', () => {
  test('daily: the latest moment is the last UTC midnight', () => {
    expect(latestRefillMoment({ interval: 'daily', amount: 5 }, utc('2026-03-10T13:45:00'))).toBe(utc('2026-03-10T00:00:00'));
    expect(latestRefillMoment({ interval: 'daily', amount: 5 }, utc('2026-03-10T00:00:00'))).toBe(utc('2026-03-10T00:00:00'));
  });

  test('monthly: on refillDay, or the previous month before that day', () => {
    const refill = { interval: 'monthly', amount: 5, refillDay: 15 } as const;
    expect(latestRefillMoment(refill, utc('2026-03-20T08:00:00'))).toBe(utc('2026-03-15T00:00:00'));
    expect(latestRefillMoment(refill, utc('2026-03-14T23:59:59'))).toBe(utc('2026-02-15T00:00:00'));
    expect(latestRefillMoment(refill, utc('2026-01-03T00:00:00'))).toBe(utc('2025-12-15T00:00:00'));
  });

  test('monthly on a day past the end of a short month refills on its last day', () => {
    const refill = { interval: 'monthly', amount: 5, refillDay: 31 } as const;
    expect(latestRefillMoment(refill, utc('2026-02-28T10:00:00'))).toBe(utc('2026-02-28T00:00:00'));
    expect(latestRefillMoment(refill, utc('2026-02-27T10:00:00'))).toBe(utc('2026-01-31T00:00:00'));
    expect(latestRefillMoment(refill, utc('2028-02-29T01:00:00'))).toBe(utc('2028-02-29T00:00:00'));
    expect(latestRefillMoment(refill, utc('2026-04-30T01:00:00'))).toBe(utc('2026-04-30T00:00:00'));
  });

  test('a due refill resets to the amount, once, and records when', () => {
    const credits: CreditsRecord = { remaining: 2, refill: { interval: 'daily', amount: 10 }, lastRefillAt: utc('2026-03-09T18:00:00') };
    const now = utc('2026-03-12T09:00:00');
    const after = refilled(credits, now);
    expect(after).toEqual({ remaining: 10, refill: credits.refill, lastRefillAt: now });
    // Already refilled today: nothing more is due, the same object comes back.
    expect(refilled({ ...after, remaining: 4 }, now + 3_600_000).remaining).toBe(4);
  });

  test('not due before the next moment; a balance above the amount is kept', () => {
    const credits: CreditsRecord = { remaining: 1, refill: { interval: 'daily', amount: 10 }, lastRefillAt: utc('2026-03-12T00:30:00') };
    expect(refilled(credits, utc('2026-03-12T23:59:59'))).toBe(credits);
    const rich: CreditsRecord = { remaining: 50, refill: { interval: 'daily', amount: 10 }, lastRefillAt: utc('2026-03-11T12:00:00') };
    expect(refilled(rich, utc('2026-03-12T01:00:00')).remaining).toBe(50);
  });

  test('counters without a refill, or without a schedule, never change', () => {
    const plain: CreditsRecord = { remaining: 0 };
    expect(refilled(plain, Date.now())).toBe(plain);
    const unscheduled: CreditsRecord = { remaining: 0, refill: { interval: 'daily', amount: 10 } };
    expect(refilled(unscheduled, Date.now())).toBe(unscheduled);
  });
});
