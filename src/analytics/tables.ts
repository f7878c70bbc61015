/**
 * The public tables of analytics.getVerifications (Unkey's names) and how each column
 * is read from what the store keeps: key_verifications_v1 from the raw records,
 * key_verifications_per_{minute,hour,day,month}_v1 from the rollups. Columns keygate has no data
 * for read as ClickHouse's empty values ('' for region and app_id, 'api' for source). `api_id`
 * is keygate's own addition (Unkey filters by key_space_id; both work).
 */
import { WORKSPACE_ID, type RollupGranularity, type VerificationRecord, type VerificationRollup } from '../storage/records.js';
import type { Value } from './sql/values.js';

/** What a column's value is (for the rules the planner checks). */
export type ColumnType = 'string' | 'number' | 'time' | 'strings' | 'avgState';

/** What a row read needs beyond the row: the key space of an API (loaded per page). */
export interface RowContext {
  keyspaceOf(apiId: string): string;
}

export interface Column<R = unknown> {
  readonly name: string;
  readonly type: ColumnType;
  read(row: R, ctx: RowContext): Value;
}

export interface Table<R = unknown> {
  readonly name: string;
  /** null: the raw records; otherwise the rollup it reads. */
  readonly granularity: RollupGranularity | null;
  /** In the order of SELECT *. */
  readonly columns: readonly Column<R>[];
}

type Shared = VerificationRecord & VerificationRollup;
const shared = <R extends Partial<Shared> & { apiId: string; keyId: string; outcome: string; time: number }>(): Column<R>[] => [
  { name: 'time', type: 'time', read: (r) => r.time },
  { name: 'workspace_id', type: 'string', read: () => WORKSPACE_ID },
  { name: 'key_space_id', type: 'string', read: (r, ctx) => ctx.keyspaceOf(r.apiId) },
  { name: 'api_id', type: 'string', read: (r) => r.apiId },
  { name: 'identity_id', type: 'string', read: (r) => r.identityId ?? '' },
  { name: 'external_id', type: 'string', read: (r) => r.externalId ?? '' },
  { name: 'key_id', type: 'string', read: (r) => r.keyId },
  { name: 'outcome', type: 'string', read: (r) => r.outcome },
  { name: 'tags', type: 'strings', read: (r) => r.tags ?? [] },
];

const raw: Table<VerificationRecord> = {
  name: 'key_verifications_v1',
  granularity: null,
  columns: [
    { name: 'request_id', type: 'string', read: (r) => r.requestId },
    ...shared<VerificationRecord>(),
    { name: 'region', type: 'string', read: () => '' },
    { name: 'source', type: 'string', read: () => 'api' },
    { name: 'app_id', type: 'string', read: () => '' },
    { name: 'spent_credits', type: 'number', read: (r) => r.spentCredits },
    { name: 'latency', type: 'number', read: (r) => r.latency ?? 0 },
  ],
};

const rollup = (granularity: RollupGranularity): Table<VerificationRollup> => ({
  name: `key_verifications_per_${granularity}_v1`,
  granularity,
  columns: [
    ...shared<VerificationRollup>(),
    { name: 'count', type: 'number', read: (r) => r.count },
    { name: 'spent_credits', type: 'number', read: (r) => r.spentCredits },
    { name: 'latency_avg', type: 'avgState', read: (r) => ({ kind: 'avgState', sum: r.latencySum, count: r.latencyCount }) },
  ],
});

export const TABLES: ReadonlyMap<string, Table> = new Map<string, Table>(
  [raw, rollup('minute'), rollup('hour'), rollup('day'), rollup('month')].map((t) => [t.name, t as Table]),
);
