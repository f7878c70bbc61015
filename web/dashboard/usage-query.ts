/**
 * The SQL the usage page sends to analytics.getVerifications (Unkey's ClickHouse spelling over the
 * public key_verifications_* tables), and turning its rows into chart series. Kept in one
 * place: the only file that knows table and column names.
 */

export type RangeId = '1h' | '24h' | '7d' | '30d';

export interface Range {
  readonly id: RangeId;
  readonly label: string;
  readonly ms: number;
  /** Bucket width, and the rollup table with that width. */
  readonly bucketMs: number;
  readonly table: string;
  readonly interval: string;
}

export const RANGES: readonly Range[] = [
  { id: '1h', label: 'Last hour', ms: 3_600_000, bucketMs: 60_000, table: 'key_verifications_per_minute_v1', interval: 'INTERVAL 1 HOUR' },
  { id: '24h', label: '24 hours', ms: 86_400_000, bucketMs: 3_600_000, table: 'key_verifications_per_hour_v1', interval: 'INTERVAL 24 HOUR' },
  { id: '7d', label: '7 days', ms: 7 * 86_400_000, bucketMs: 3_600_000, table: 'key_verifications_per_hour_v1', interval: 'INTERVAL 7 DAY' },
  { id: '30d', label: '30 days', ms: 30 * 86_400_000, bucketMs: 86_400_000, table: 'key_verifications_per_day_v1', interval: 'INTERVAL 30 DAY' },
];

export interface Scope {
  readonly apiId?: string;
  readonly keyId?: string;
  readonly externalId?: string;
}

/** Dimensions a breakdown can group by, with their column. */
export const DIMENSIONS = { api: 'api_id', key: 'key_id', identity: 'external_id' } as const;
export type Dimension = keyof typeof DIMENSIONS;

/** Outcomes in the order the chart and the cards show them; anything else is added after. */
export const OUTCOMES = ['VALID', 'RATE_LIMITED', 'USAGE_EXCEEDED', 'DISABLED', 'EXPIRED', 'INSUFFICIENT_PERMISSIONS', 'NOT_FOUND'] as const;

const quote = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function where(range: Range, scope: Scope): string {
  const conditions = [`time >= now() - ${range.interval}`];
  // api_id is keygate's own column (Unkey's tables have key_space_id only).
  if (scope.apiId) conditions.push(`api_id = ${quote(scope.apiId)}`);
  if (scope.keyId) conditions.push(`key_id = ${quote(scope.keyId)}`);
  if (scope.externalId) conditions.push(`external_id = ${quote(scope.externalId)}`);
  return conditions.join(' AND ');
}

/** Verifications per bucket and outcome. */
export function timeSeriesQuery(range: Range, scope: Scope): string {
  return `SELECT time, outcome, sum(count) AS total FROM ${range.table} WHERE ${where(range, scope)} GROUP BY time, outcome ORDER BY time`;
}

/** Verifications per value of one dimension and outcome, over the whole range. */
export function breakdownQuery(range: Range, scope: Scope, dimension: Dimension): string {
  const column = DIMENSIONS[dimension];
  return `SELECT ${column} AS id, outcome, sum(count) AS total FROM ${range.table} WHERE ${where(range, scope)} GROUP BY ${column}, outcome ORDER BY total DESC LIMIT 1000`;
}

/** A row's `time` as unix ms: a number (ms or s) or ClickHouse's 'YYYY-MM-DD hh:mm:ss' (UTC). */
export function timeOf(value: unknown): number {
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value)) return timeOf(Number(value));
    const iso = value.includes('T') ? value : `${value.replace(' ', 'T')}Z`;
    return Date.parse(iso);
  }
  return Number.NaN;
}

const countOf = (value: unknown): number => (typeof value === 'number' ? value : Number(value) || 0);

export interface Series {
  /** Bucket starts, unix seconds (uPlot's x values). */
  readonly xs: number[];
  /** Counts per outcome, one per bucket (0 where nothing happened). */
  readonly byOutcome: Map<string, number[]>;
  readonly totals: Map<string, number>;
  readonly total: number;
}

/** Every bucket of the range, in order, with the rows' counts in place (empty buckets are 0). */
export function toSeries(rows: readonly Record<string, unknown>[], range: Range, nowMs: number): Series {
  const last = Math.floor(nowMs / range.bucketMs) * range.bucketMs;
  const first = last - Math.ceil(range.ms / range.bucketMs) * range.bucketMs + range.bucketMs;
  const xsMs: number[] = [];
  for (let t = first; t <= last; t += range.bucketMs) xsMs.push(t);
  const index = new Map(xsMs.map((t, i) => [t, i]));
  const byOutcome = new Map<string, number[]>();
  const totals = new Map<string, number>();
  let total = 0;
  for (const outcome of OUTCOMES) byOutcome.set(outcome, xsMs.map(() => 0));
  for (const row of rows) {
    const t = Math.floor(timeOf(row.time) / range.bucketMs) * range.bucketMs;
    const i = index.get(t);
    const outcome = String(row.outcome ?? 'UNKNOWN');
    const n = countOf(row.total ?? row.count);
    totals.set(outcome, (totals.get(outcome) ?? 0) + n);
    total += n;
    if (i === undefined) continue;
    if (!byOutcome.has(outcome)) byOutcome.set(outcome, xsMs.map(() => 0));
    byOutcome.get(outcome)![i]! += n;
  }
  return { xs: xsMs.map((t) => t / 1000), byOutcome, totals, total };
}

export interface BreakdownRow {
  readonly id: string;
  readonly total: number;
  readonly byOutcome: Map<string, number>;
}

export function toBreakdown(rows: readonly Record<string, unknown>[]): BreakdownRow[] {
  const out = new Map<string, { total: number; byOutcome: Map<string, number> }>();
  for (const row of rows) {
    const id = row.id === null || row.id === undefined || row.id === '' ? '' : String(row.id);
    const entry = out.get(id) ?? { total: 0, byOutcome: new Map<string, number>() };
    const n = countOf(row.total ?? row.count);
    entry.total += n;
    const outcome = String(row.outcome ?? 'UNKNOWN');
    entry.byOutcome.set(outcome, (entry.byOutcome.get(outcome) ?? 0) + n);
    out.set(id, entry);
  }
  return [...out].map(([id, v]) => ({ id, ...v })).sort((a, b) => b.total - a.total);
}
