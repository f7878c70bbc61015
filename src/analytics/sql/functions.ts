/**
 * The functions of keygate's analytics SQL: a subset of the ClickHouse functions Unkey allows,
 * under their ClickHouse names (matched case-insensitively). Anything else is refused by the
 * planner with invalid_analytics_function naming it.
 */
import type { IntervalUnit } from './ast.js';
import { QueryError } from './errors.js';
import {
  asTime, compare, equal, show, startOf, truthy, valueKey, type AvgState, type Value,
} from './values.js';

export interface ScalarFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  apply(args: readonly Value[], now: number): Value;
}

/** Accumulates the rows of one group; `add` gets the evaluated arguments. */
export interface Aggregator {
  add(args: readonly Value[]): void;
  result(): Value;
}

export interface AggregateFunction {
  readonly minArgs: number;
  readonly maxArgs: number;
  /** count(DISTINCT x) and the like. */
  readonly allowsDistinct: boolean;
  create(distinct: boolean): Aggregator;
}

const num = (v: Value, fn: string): number | null => {
  if (v === null) return null;
  if (typeof v === 'number') return v;
  throw new QueryError('query', `${fn}() needs a number; got ${show(v)}.`);
};

const arr = (v: Value, fn: string): readonly Value[] => {
  if (Array.isArray(v)) return v;
  throw new QueryError('query', `${fn}() needs an array (such as tags or ['a', 'b']); got ${show(v)}.`);
};

const str = (v: Value, fn: string): string | null => {
  if (v === null || typeof v === 'string') return v;
  throw new QueryError('query', `${fn}() needs a string; got ${show(v)}.`);
};

const scalar = (minArgs: number, maxArgs: number, apply: ScalarFunction['apply']): ScalarFunction => ({ minArgs, maxArgs, apply });

/** toStartOfX(t): the start of the UTC unit containing t (ms). */
const truncate = (unit: IntervalUnit, fn: string) => scalar(1, 2, ([t]) => {
  const ms = asTime(t!, `${fn}()`);
  return ms === null ? null : startOf(unit, ms);
});

const interval = (unit: IntervalUnit, fn: string) => scalar(1, 1, ([n]) => {
  const amount = num(n!, fn);
  return amount === null ? null : { kind: 'interval', unit, amount };
});

const UNIT_NAMES: Readonly<Record<string, IntervalUnit>> = {
  second: 'second', minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year',
};

export const SCALARS: Readonly<Record<string, ScalarFunction>> = {
  now: scalar(0, 1, (_args, now) => startOf('second', now)),
  now64: scalar(0, 2, (_args, now) => now),
  today: scalar(0, 0, (_args, now) => startOf('day', now)),
  tostartofminute: truncate('minute', 'toStartOfMinute'),
  tostartofhour: truncate('hour', 'toStartOfHour'),
  tostartofday: truncate('day', 'toStartOfDay'),
  tostartofweek: truncate('week', 'toStartOfWeek'),
  tostartofmonth: truncate('month', 'toStartOfMonth'),
  tostartofquarter: truncate('quarter', 'toStartOfQuarter'),
  tostartofyear: truncate('year', 'toStartOfYear'),
  todate: truncate('day', 'toDate'),
  todatetime: truncate('second', 'toDateTime'),
  todatetime64: scalar(1, 3, ([t]) => asTime(t!, 'toDateTime64()')),
  date_trunc: scalar(2, 3, ([unit, t]) => {
    const u = UNIT_NAMES[String(str(unit!, 'date_trunc') ?? '').toLowerCase()];
    if (!u) throw new QueryError('query', `date_trunc() takes a unit such as 'day' or 'hour'; got ${show(unit!)}.`);
    const ms = asTime(t!, 'date_trunc()');
    return ms === null ? null : startOf(u, ms);
  }),
  fromunixtimestamp64milli: scalar(1, 2, ([n]) => num(n!, 'fromUnixTimestamp64Milli')),
  tounixtimestamp64milli: scalar(1, 1, ([t]) => asTime(t!, 'toUnixTimestamp64Milli()')),
  fromunixtimestamp: scalar(1, 1, ([n]) => { const s = num(n!, 'fromUnixTimestamp'); return s === null ? null : s * 1_000; }),
  tounixtimestamp: scalar(1, 2, ([t]) => { const ms = asTime(t!, 'toUnixTimestamp()'); return ms === null ? null : Math.floor(ms / 1_000); }),
  tointervalsecond: interval('second', 'toIntervalSecond'),
  tointervalminute: interval('minute', 'toIntervalMinute'),
  tointervalhour: interval('hour', 'toIntervalHour'),
  tointervalday: interval('day', 'toIntervalDay'),
  tointervalweek: interval('week', 'toIntervalWeek'),
  tointervalmonth: interval('month', 'toIntervalMonth'),
  tointervalquarter: interval('quarter', 'toIntervalQuarter'),
  tointervalyear: interval('year', 'toIntervalYear'),
  has: scalar(2, 2, ([a, x]) => (arr(a!, 'has').some((v) => equal(v, x!)) ? 1 : 0)),
  hasany: scalar(2, 2, ([a, b]) => { const set = arr(b!, 'hasAny'); return arr(a!, 'hasAny').some((v) => set.some((w) => equal(v, w))) ? 1 : 0; }),
  hasall: scalar(2, 2, ([a, b]) => { const have = arr(a!, 'hasAll'); return arr(b!, 'hasAll').every((w) => have.some((v) => equal(v, w))) ? 1 : 0; }),
  length: scalar(1, 1, ([v]) => (v === null ? null : Array.isArray(v) ? v.length : Buffer.byteLength(str(v!, 'length')!))),
  empty: scalar(1, 1, ([v]) => (Array.isArray(v) ? v.length === 0 : str(v!, 'empty') === '') ? 1 : 0),
  notempty: scalar(1, 1, ([v]) => (Array.isArray(v) ? v.length > 0 : (str(v!, 'notEmpty') ?? '') !== '') ? 1 : 0),
  if: scalar(3, 3, ([c, a, b]) => (truthy(c!, 'if()') ? a! : b!)),
  coalesce: scalar(1, 64, (args) => args.find((v) => v !== null) ?? null),
  lower: scalar(1, 1, ([s]) => str(s!, 'lower')?.toLowerCase() ?? null),
  upper: scalar(1, 1, ([s]) => str(s!, 'upper')?.toUpperCase() ?? null),
  startswith: scalar(2, 2, ([s, p]) => (str(s!, 'startsWith')?.startsWith(str(p!, 'startsWith') ?? '') ? 1 : 0)),
  endswith: scalar(2, 2, ([s, p]) => (str(s!, 'endsWith')?.endsWith(str(p!, 'endsWith') ?? '') ? 1 : 0)),
  round: scalar(1, 2, ([x, d]) => {
    const v = num(x!, 'round');
    const f = 10 ** (num(d ?? 0, 'round') ?? 0);
    return v === null ? null : Math.round(v * f) / f;
  }),
  floor: scalar(1, 1, ([x]) => { const v = num(x!, 'floor'); return v === null ? null : Math.floor(v); }),
  ceil: scalar(1, 1, ([x]) => { const v = num(x!, 'ceil'); return v === null ? null : Math.ceil(v); }),
  abs: scalar(1, 1, ([x]) => { const v = num(x!, 'abs'); return v === null ? null : Math.abs(v); }),
  tostring: scalar(1, 1, ([v]) => (v === null ? null : typeof v === 'string' ? v : typeof v === 'number' ? String(v) : JSON.stringify(v))),
  toint64: scalar(1, 1, ([v]) => { const n = typeof v === 'string' ? Number(v) : num(v!, 'toInt64'); return n === null ? null : Math.trunc(n); }),
  tofloat64: scalar(1, 1, ([v]) => (typeof v === 'string' ? Number(v) : num(v!, 'toFloat64'))),
};

/** Distinct values of the first argument (count(DISTINCT x), uniq, uniqExact). */
const distinctCounter = (): Aggregator => {
  const seen = new Set<string>();
  return { add: ([v]) => { if (v !== null && v !== undefined) seen.add(valueKey(v)); }, result: () => seen.size };
};

/** min/max: the smallest (sign 1) or largest (sign -1) non-NULL value; NULL for no rows. */
const extreme = (sign: 1 | -1): Aggregator => {
  let best: Value = null;
  return {
    add: ([v]) => { if (v !== null && v !== undefined && (best === null || compare(v, best)! * sign < 0)) best = v; },
    result: () => best,
  };
};

const aggregate = (minArgs: number, maxArgs: number, create: AggregateFunction['create'], allowsDistinct = false): AggregateFunction =>
  ({ minArgs, maxArgs, allowsDistinct, create });

export const AGGREGATES: Readonly<Record<string, AggregateFunction>> = {
  /** count(*) and count() count rows; count(x) counts non-NULL x. */
  count: aggregate(0, 1, (distinct) => {
    if (distinct) return distinctCounter();
    let n = 0;
    return { add: (args) => { if (args.length === 0 || args[0] !== null) n++; }, result: () => n };
  }, true),
  countif: aggregate(1, 1, () => {
    let n = 0;
    return { add: ([c]) => { if (truthy(c!, 'countIf()')) n++; }, result: () => n };
  }),
  sum: aggregate(1, 1, () => {
    let total = 0;
    return { add: ([v]) => { total += num(v!, 'sum') ?? 0; }, result: () => total };
  }),
  sumif: aggregate(2, 2, () => {
    let total = 0;
    return { add: ([v, c]) => { if (truthy(c!, 'sumIf()')) total += num(v!, 'sumIf') ?? 0; }, result: () => total };
  }),
  avg: aggregate(1, 1, () => {
    let total = 0;
    let n = 0;
    return { add: ([v]) => { const x = num(v!, 'avg'); if (x !== null) { total += x; n++; } }, result: () => (n === 0 ? null : total / n) };
  }),
  min: aggregate(1, 1, () => extreme(1)),
  max: aggregate(1, 1, () => extreme(-1)),
  uniq: aggregate(1, 1, distinctCounter),
  uniqexact: aggregate(1, 1, distinctCounter),
  /** The average latency of rollup rows: their latency sums over their latency counts. */
  avgmerge: aggregate(1, 1, () => {
    let total = 0;
    let n = 0;
    return {
      add: ([state]) => { const s = state as AvgState; total += s.sum; n += s.count; },
      result: () => (n === 0 ? null : total / n),
    };
  }),
};

/** For messages: the supported functions by their ClickHouse names. */
export const FUNCTION_NAMES = 'count, countIf, sum, sumIf, avg, min, max, uniq, uniqExact, avgMerge; now, today, '
  + 'toStartOfMinute/Hour/Day/Week/Month/Quarter/Year, toDate, toDateTime, date_trunc, fromUnixTimestamp64Milli, '
  + 'toUnixTimestamp64Milli, toInterval<Unit>; has, hasAny, hasAll, length, empty, notEmpty; if, coalesce, lower, upper, '
  + 'startsWith, endsWith, round, floor, ceil, abs, toString, toInt64, toFloat64';
