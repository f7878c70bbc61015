/**
 * Runs a Plan over the store: reads the raw records or the chosen rollup page by page (never a
 * whole range at once), filters, groups, sorts and cuts to LIMIT. Between pages it yields to the
 * event loop, so a long query never holds up verifications for more than one page, and it
 * enforces the limits: rows read (422 query_rows_limit_exceeded), groups held (422
 * query_memory_limit_exceeded) and time (422 query_execution_timeout).
 */
import type { ApiStore, VerificationStore } from '../storage/types.js';
import { evaluate, type Env } from './evaluate.js';
import type { Plan } from './plan.js';
import { QueryError } from './sql/errors.js';
import type { Aggregator } from './sql/functions.js';
import { compare, toJson, truthy, valueKey, type Value } from './sql/values.js';
import type { RowContext } from './tables.js';

export interface ExecuteLimits {
  readonly maxRowsRead: number;
  readonly timeoutMs: number;
  /** Groups (or rows awaiting ORDER BY) held at once. */
  readonly maxHeld: number;
}

export interface ExecuteDeps {
  readonly verifications: VerificationStore;
  readonly apis: ApiStore;
  readonly now: number;
  /** The clock the time limit is measured on. */
  readonly clock: () => number;
}

/** Rows per store page: small enough that one page is a short pause for the event loop. */
const PAGE_ROWS = 2_000;

interface Output { readonly values: Value[]; readonly order: Value[] }

export async function execute(plan: Plan, deps: ExecuteDeps, limits: ExecuteLimits): Promise<Record<string, unknown>[]> {
  const started = deps.clock();
  const keyspaces = new Map<string, string>();
  const ctx: RowContext = { keyspaceOf: (apiId) => keyspaces.get(apiId) ?? '' };
  const wanted = plan.offset + plan.limit;
  const groups = new Map<string, { keys: Value[]; aggregators: Aggregator[] }>();
  let outputs: Output[] = [];
  const seen = new Set<string>();
  let read = 0;
  let cursor: string | undefined;

  const output = (env: Env): void => {
    const values = plan.columns.map((c) => evaluate(c.expr, env));
    if (plan.distinct) {
      const key = valueKey(values);
      if (seen.has(key)) return;
      seen.add(key);
    }
    outputs.push({ values, order: plan.orderBy.map((o) => evaluate(o.expr, env)) });
    if (plan.orderBy.length > 0 && outputs.length >= Math.max(2 * wanted, 10_000)) outputs = sortOutputs(plan, outputs).slice(0, wanted);
    if (outputs.length > limits.maxHeld) throw memoryError(limits.maxHeld);
  };

  for (;;) {
    const scan = { fromMs: plan.fromMs, ...(plan.toMs !== undefined ? { toMs: plan.toMs } : {}), limit: PAGE_ROWS, ...(cursor !== undefined ? { cursor } : {}) };
    const page = plan.table.granularity === null
      ? await deps.verifications.scan(scan)
      : await deps.verifications.scanRollups(plan.table.granularity, scan);
    read += page.items.length;
    if (read > limits.maxRowsRead) {
      throw new QueryError('rows_limit', `The query would read more than ${limits.maxRowsRead} rows (ANALYTICS_MAX_ROWS_READ): narrow the time range or use a coarser rollup table (key_verifications_per_hour_v1, _per_day_v1, _per_month_v1).`);
    }
    if (plan.usesKeyspace) await loadKeyspaces(page.items as { apiId: string }[], keyspaces, deps.apis);
    for (const row of page.items) {
      const env: Env = { now: deps.now, row, ctx };
      if (!truthy(evaluate(plan.filter, env), 'WHERE')) continue;
      if (!plan.aggregated) {
        output(env);
        if (plan.orderBy.length === 0 && outputs.length >= wanted) break;
        continue;
      }
      const keys = plan.groupBy.map((g) => evaluate(g, env));
      const id = valueKey(keys);
      let group = groups.get(id);
      if (!group) {
        if (groups.size >= limits.maxHeld) throw memoryError(limits.maxHeld);
        group = { keys, aggregators: plan.aggregates.map((a) => a.fn.create(a.distinct)) };
        groups.set(id, group);
      }
      for (let i = 0; i < plan.aggregates.length; i++) {
        group.aggregators[i]!.add(plan.aggregates[i]!.args.map((a) => evaluate(a, env)));
      }
    }
    if (page.cursor === null || (!plan.aggregated && plan.orderBy.length === 0 && outputs.length >= wanted)) break;
    if (deps.clock() - started > limits.timeoutMs) {
      throw new QueryError('timeout', `The query took longer than ${limits.timeoutMs} ms (ANALYTICS_QUERY_TIMEOUT_MS): narrow the time range or use a coarser rollup table.`);
    }
    cursor = page.cursor;
    // Let requests waiting on the event loop (verifications) run between pages.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  if (plan.aggregated) {
    // Without GROUP BY an aggregate query answers one row, also over no rows at all.
    if (plan.groupBy.length === 0 && groups.size === 0) groups.set('[]', { keys: [], aggregators: plan.aggregates.map((a) => a.fn.create(a.distinct)) });
    for (const group of groups.values()) {
      const env: Env = { now: deps.now, groupValues: group.keys, aggregateValues: group.aggregators.map((a) => a.result()) };
      if (plan.having && !truthy(evaluate(plan.having, env), 'HAVING')) continue;
      output(env);
    }
  }
  const rows = (plan.orderBy.length > 0 ? sortOutputs(plan, outputs) : outputs).slice(plan.offset, wanted);
  return rows.map(({ values }) => Object.fromEntries(plan.columns.map((c, i) => [c.name, toJson(values[i]!, c.name)])));
}

/** Stable sort by the ORDER BY values; NULLs last in either direction. */
function sortOutputs(plan: Plan, outputs: Output[]): Output[] {
  return outputs.sort((a, b) => {
    for (let i = 0; i < plan.orderBy.length; i++) {
      const x = a.order[i]!;
      const y = b.order[i]!;
      if (x === null || y === null) {
        if (x === y) continue;
        return x === null ? 1 : -1;
      }
      const c = compare(x, y)!;
      if (c !== 0) return plan.orderBy[i]!.descending ? -c : c;
    }
    return 0;
  });
}

async function loadKeyspaces(rows: readonly { apiId: string }[], keyspaces: Map<string, string>, apis: ApiStore): Promise<void> {
  const missing = [...new Set(rows.map((r) => r.apiId))].filter((id) => !keyspaces.has(id));
  const found = await Promise.all(missing.map((id) => apis.get(id)));
  missing.forEach((id, i) => keyspaces.set(id, found[i]?.keyspaceId ?? ''));
}

const memoryError = (max: number): QueryError =>
  new QueryError('memory_limit', `The query would hold more than ${max} groups or rows at once: group by fewer values or add a LIMIT without ORDER BY.`);
