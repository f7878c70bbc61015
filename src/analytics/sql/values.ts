/**
 * Values while a query runs, and the few rules that combine them. Times are unix ms numbers, in
 * the raw table (Int64 ms) and in the rollups (DateTime buckets) alike, and come back as ms: a
 * number compared with a date string ('2025-01-31' or '2025-01-31 12:00:00', UTC) compares as
 * the time the string names. Booleans are 1 and 0, as in ClickHouse. Time arithmetic is UTC.
 */
import type { IntervalUnit } from './ast.js';
import { QueryError } from './errors.js';

export interface Interval {
  readonly kind: 'interval';
  readonly unit: IntervalUnit;
  readonly amount: number;
}

/** The state of the rollup column latency_avg: read with avgMerge(latency_avg). */
export interface AvgState {
  readonly kind: 'avgState';
  readonly sum: number;
  readonly count: number;
}

export type Value = number | string | null | readonly Value[] | Interval | AvgState;

const MS: Readonly<Record<'second' | 'minute' | 'hour' | 'day' | 'week', number>> = {
  second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000,
};

const isObject = (v: Value): v is Interval | AvgState => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isInterval = (v: Value): v is Interval => isObject(v) && v.kind === 'interval';

/** UTC: 'YYYY-MM-DD', 'YYYY-MM-DD hh:mm:ss[.fff]', or ISO 8601 with T and an optional Z. */
export function parseDateTime(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', f = '0'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(f.padEnd(3, '0')));
  return Number.isNaN(ms) ? undefined : ms;
}

/** A value used as a point in time: ms, or a date string. */
export function asTime(v: Value, where: string): number | null {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    const ms = parseDateTime(v);
    if (ms !== undefined) return ms;
  }
  throw new QueryError('query', `${where} needs a time (unix ms, or a date such as '2025-01-31'); got ${show(v)}.`);
}

export type TimeUnit = IntervalUnit;

/** Start of the UTC `unit` containing `ms`; weeks start on Sunday (ClickHouse's default mode). */
export function startOf(unit: TimeUnit, ms: number): number {
  const d = new Date(ms);
  switch (unit) {
    case 'second': case 'minute': case 'hour': case 'day':
      return Math.floor(ms / MS[unit]) * MS[unit];
    case 'week': {
      const day = Math.floor(ms / MS.day) * MS.day;
      return day - new Date(day).getUTCDay() * MS.day;
    }
    case 'month': return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    case 'quarter': return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (d.getUTCMonth() % 3), 1);
    case 'year': return Date.UTC(d.getUTCFullYear(), 0, 1);
  }
}

/** `ms` moved by `sign × interval`; months and years keep the day, clamped to the month's last. */
export function addInterval(ms: number, interval: Interval, sign: 1 | -1): number {
  const n = interval.amount * sign;
  if (interval.unit in MS) return ms + n * MS[interval.unit as keyof typeof MS];
  const months = n * (interval.unit === 'year' ? 12 : interval.unit === 'quarter' ? 3 : 1);
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  return Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/** Orders two values: negative, 0, positive; null when either is NULL (the comparison is NULL). */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'string') return a - coerce(b, a);
  if (typeof a === 'string' && typeof b === 'number') return coerce(a, b) - b;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compare(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  throw new QueryError('query', `Cannot compare ${show(a)} with ${show(b)}.`);
}

/** A string compared with a number: a date string is its time, a numeric string its number. */
function coerce(text: string, other: number): number {
  const time = parseDateTime(text);
  if (time !== undefined) return time;
  if (text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  throw new QueryError('query', `Cannot compare the number ${other} with the string '${text.slice(0, 40)}'.`);
}

export const equal = (a: Value, b: Value): boolean => compare(a, b) === 0;

/** A condition's value: true for non-zero numbers; NULL is false. */
export function truthy(v: Value, where: string): boolean {
  if (v === null) return false;
  if (typeof v === 'number') return v !== 0;
  throw new QueryError('query', `${where} must be a condition (true or false); got ${show(v)}.`);
}

export function arithmetic(op: '+' | '-' | '*' | '/' | '%', a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if ((op === '+' || op === '-') && isInterval(b)) return addInterval(asTime(a, `${op} INTERVAL`)!, b, op === '+' ? 1 : -1);
  if (op === '+' && isInterval(a)) return addInterval(asTime(b, '+ INTERVAL')!, a, 1);
  if (typeof a !== 'number' || typeof b !== 'number') throw new QueryError('query', `Cannot compute ${show(a)} ${op} ${show(b)}.`);
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return a % b;
  }
}

/** A short rendering of a value for messages. */
export function show(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'string') return `'${v.slice(0, 40)}'`;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.slice(0, 5).map(show).join(', ')}${v.length > 5 ? ', …' : ''}]`;
  const o = v as Interval | AvgState;
  return o.kind === 'interval' ? `INTERVAL ${o.amount} ${o.unit.toUpperCase()}` : 'an aggregate state';
}

/** A value as it appears in the answer: NaN and ±Infinity become null. */
export function toJson(v: Value, column: string): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (Array.isArray(v)) return v.map((x) => toJson(x, column));
  if (isObject(v)) throw new QueryError('query', `Column '${column}' is ${show(v)}, which cannot be returned.`);
  return v;
}

/** A key that is equal for equal values (GROUP BY, DISTINCT, uniq). */
export const valueKey = (v: Value): string => JSON.stringify(v);
