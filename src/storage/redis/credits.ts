/**
 * The TypeScript side of lua/credits-change.lua: the UTC calendar facts the refill rule needs
 * (Lua has no date library; the rule itself is src/storage/refill.ts, mirrored in the script),
 * the counter as ARGV, and the reply as a CreditsRecord.
 */
import type { CreditsRecord, CreditsRefill } from '../records.js';

const DAY_MS = 86_400_000;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** nowMs, todayStartMs, monthStartMs, daysInMonth, prevMonthStartMs, daysInPrevMonth (UTC). */
export function calendarArgs(nowMs: number): number[] {
  const now = new Date(nowMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return [
    nowMs, Math.floor(nowMs / DAY_MS) * DAY_MS,
    Date.UTC(year, month, 1), daysInMonth(year, month),
    Date.UTC(year, month - 1, 1), daysInMonth(year, month - 1),
  ];
}

const text = (n: number | undefined): string => (n === undefined ? '' : String(n));

/** ARGV of the `set` op: a counter, or null to remove it. */
export function setArgs(credits: CreditsRecord | null): string[] {
  if (!credits) return ['', '', '', '', ''];
  const { remaining, refill, lastRefillAt } = credits;
  return [String(remaining), refill?.interval ?? '', text(refill?.amount), text(refill?.refillDay), text(lastRefillAt)];
}

/** ARGV of the `patch` op. */
export function patchArgs(patch: { remaining?: number; refill?: CreditsRefill | null }): string[] {
  const { remaining, refill } = patch;
  const mode = refill === undefined ? 'keep' : refill === null ? 'remove' : 'set';
  return [text(remaining), mode, refill?.interval ?? '', text(refill?.amount), text(refill?.refillDay)];
}

export type CreditsStatus = 'ok' | 'refused' | 'none' | 'unknown';

/** The script's reply: its status and the counter (null when it has none). */
export function parseReply(reply: unknown): { status: CreditsStatus; credits: CreditsRecord | null } {
  const [status, remaining, interval, amount, refillDay, lastRefillAt] = reply as [CreditsStatus, string, string, string, string, string];
  if (remaining === '') return { status, credits: null };
  const refill: CreditsRefill | undefined = interval === ''
    ? undefined
    : { interval: interval as CreditsRefill['interval'], amount: Number(amount), ...(refillDay !== '' ? { refillDay: Number(refillDay) } : {}) };
  return {
    status,
    credits: {
      remaining: Number(remaining),
      ...(refill ? { refill } : {}),
      ...(lastRefillAt !== '' ? { lastRefillAt: Number(lastRefillAt) } : {}),
    },
  };
}

/** Hash fields of a counter as written along with a new key record (record-cas.lua ARGV[3..]). */
export function creditFields(credits: CreditsRecord): (string | number)[] {
  const { remaining, refill, lastRefillAt } = credits;
  return [
    'cr', remaining,
    ...(refill ? ['ci', refill.interval, 'ca', refill.amount] : []),
    ...(refill?.refillDay !== undefined ? ['cd', refill.refillDay] : []),
    ...(lastRefillAt !== undefined ? ['cl', lastRefillAt] : []),
  ];
}
