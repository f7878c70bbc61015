/**
 * analytics.getVerifications end to end, short of HTTP: parse the SQL (sql/parser.ts), plan it
 * for the caller's workspace and API scope (plan.ts), run it over the store (execute.ts). The
 * limits are the settings ANALYTICS_* (config.ts), mirroring Unkey's: look-back, result rows,
 * rows read and time.
 */
import type { Config } from '../config.js';
import type { Storage } from '../storage/types.js';
import { execute } from './execute.js';
import { planQuery } from './plan.js';
import { parseQuery } from './sql/parser.js';

export interface QueryScope {
  readonly workspaceId: string;
  /** null: every API of the workspace; otherwise only these. */
  readonly apiIds: readonly string[] | null;
}

type AnalyticsSettings = Pick<Config, 'analyticsRetentionDays' | 'analyticsMaxResultRows' | 'analyticsMaxRowsRead' | 'analyticsQueryTimeoutMs'>;

const DAY_MS = 86_400_000;
/** Groups, or rows waiting for ORDER BY, held at once by one query. */
const MAX_HELD = 1_000_000;

/** Rejects with QueryError for anything refused (the route maps its kind to Unkey's code). */
export async function runAnalyticsQuery(
  sql: string, scope: QueryScope, deps: { storage: Storage; config: AnalyticsSettings; now: () => number },
): Promise<Record<string, unknown>[]> {
  const { config } = deps;
  const now = deps.now();
  const plan = planQuery(parseQuery(sql), {
    workspaceId: scope.workspaceId,
    apiIds: scope.apiIds,
    now,
    retentionMs: config.analyticsRetentionDays * DAY_MS,
    maxResultRows: config.analyticsMaxResultRows,
  });
  return execute(plan, { verifications: deps.storage.verifications, apis: deps.storage.apis, now, clock: Date.now }, {
    maxRowsRead: config.analyticsMaxRowsRead,
    timeoutMs: config.analyticsQueryTimeoutMs,
    maxHeld: Math.min(MAX_HELD, config.analyticsMaxRowsRead),
  });
}
