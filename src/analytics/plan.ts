/**
 * The planner: turns a parsed SELECT into a Plan the executor runs over the store. It resolves
 * aliases and columns of the chosen table, checks functions and grouping rules, and adds what
 * the caller did not write but must get: the workspace filter, the root key's API scope, and the
 * look-back limit (a time bound older than it is refused; without a lower bound, one is added).
 * The scope predicates are nodes of the plan's filter, ANDed with the query's own WHERE: nothing
 * is done to the query text.
 */
import { bucketStart } from '../storage/rollups.js';
import type { Expr, SelectItem, SelectQuery } from './sql/ast.js';
import { PUBLIC_TABLES, QueryError } from './sql/errors.js';
import { AGGREGATES, type AggregateFunction } from './sql/functions.js';
import { asTime, startOf } from './sql/values.js';
import { Binder, conjuncts, isConstant, mapChildren, walk, type Bound } from './bind.js';
import { evaluate } from './evaluate.js';
import { TABLES, type Column, type Table } from './tables.js';

export type { Bound } from './bind.js';

export interface AggregateCall {
  readonly fn: AggregateFunction;
  readonly distinct: boolean;
  readonly args: readonly Bound[];
}

export interface Plan {
  readonly table: Table;
  /** Row filter: the workspace, the API scope and the query's WHERE. */
  readonly filter: Bound;
  /** What the store scan reads: [fromMs, toMs) of record time or bucket start. */
  readonly fromMs: number;
  readonly toMs?: number;
  readonly aggregated: boolean;
  readonly groupBy: readonly Bound[];
  readonly aggregates: readonly AggregateCall[];
  /** Output columns, in order; in an aggregated plan evaluated per group. */
  readonly columns: readonly { readonly name: string; readonly expr: Bound }[];
  readonly having?: Bound;
  readonly orderBy: readonly { readonly expr: Bound; readonly descending: boolean }[];
  readonly distinct: boolean;
  readonly limit: number;
  readonly offset: number;
  /** Whether key_space_id is read (the executor then looks up the APIs of each page). */
  readonly usesKeyspace: boolean;
}

export interface PlanOptions {
  readonly workspaceId: string;
  /** null: every API of the workspace; otherwise only the rows of these APIs. */
  readonly apiIds: readonly string[] | null;
  /** Unix ms of the query: now() and the look-back are taken from it. */
  readonly now: number;
  /** How far back a query may read (ANALYTICS_RETENTION_DAYS). */
  readonly retentionMs: number;
  /** LIMIT is lowered to this, as Unkey does (ANALYTICS_MAX_RESULT_ROWS). */
  readonly maxResultRows: number;
}

const DAY_MS = 86_400_000;
/**
 * Expression nodes of the whole query once every alias is replaced by what it names: an alias
 * used twice in the next is copied twice, so a chain of them doubles at each step, and every
 * node is evaluated for every row read. Counted while expanding, so the count stops the work.
 */
export const MAX_EXPANDED_NODES = 10_000;

export function planQuery(q: SelectQuery, options: PlanOptions): Plan {
  const table = TABLES.get(q.table);
  if (!table) throw new QueryError('table', `Table '${q.table}' is not allowed: query ${PUBLIC_TABLES}.`);
  const columns = new Map<string, Column>(table.columns.map((c) => [c.name, c]));
  const items: readonly SelectItem[] = q.star ? table.columns.map((c) => ({ expr: { kind: 'name', name: c.name }, text: c.name })) : q.items;

  const aliases = new Map<string, Expr>();
  for (const item of items) {
    if (item.alias === undefined) continue;
    if (aliases.has(item.alias)) throw new QueryError('query', `The alias '${item.alias}' is used twice.`);
    aliases.set(item.alias, item.expr);
  }
  const names = items.map((item) => item.alias ?? (item.expr.kind === 'name' ? item.expr.name : item.text));
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new QueryError('query', `Two columns of the result are named '${duplicate}': give them different aliases with AS.`);

  let expanded = 0;
  const expand = (e: Expr, expanding: ReadonlySet<string>, inAggregate: boolean): Expr => {
    if (++expanded > MAX_EXPANDED_NODES) {
      throw new QueryError('query', `The query is too complex: more than ${MAX_EXPANDED_NODES} expression nodes once its aliases are expanded. Use each alias fewer times.`);
    }
    if (e.kind === 'name') {
      if (e.table !== undefined) {
        if (e.table !== q.table && e.table !== q.tableAlias) throw new QueryError('query', `Unknown table '${e.table}' in '${e.table}.${e.name}'.`);
        return { kind: 'name', name: e.name };
      }
      const aliased = aliases.get(e.name);
      // Inside an aggregate a column wins over an alias of the same name: sum(count) AS count.
      if (aliased && !expanding.has(e.name) && !(inAggregate && columns.has(e.name))) {
        return expand(aliased, new Set([...expanding, e.name]), inAggregate);
      }
      return e;
    }
    const nested = inAggregate || (e.kind === 'call' && AGGREGATES[e.name.toLowerCase()] !== undefined);
    return mapChildren(e, (child) => expand(child, expanding, nested));
  };
  const expandItem = (e: Expr): Expr => expand(e, new Set(), false);
  /** GROUP BY 2, ORDER BY 1: positions in the select list. */
  const positional = (e: Expr, clause: string): Expr => {
    if (e.kind !== 'literal' || typeof e.value !== 'number') return expandItem(e);
    if (!Number.isInteger(e.value) || e.value < 1 || e.value > items.length) {
      throw new QueryError('query', `${clause} ${e.value}: there is no column at that position (the query selects ${items.length}).`);
    }
    return expand(items[e.value - 1]!.expr, new Set(items[e.value - 1]!.alias === undefined ? [] : [items[e.value - 1]!.alias!]), false);
  };

  const selected = items.map((item) => expand(item.expr, new Set(item.alias === undefined ? [] : [item.alias]), false));
  const where = q.where && expandItem(q.where);
  const groupBy = q.groupBy.map((g) => positional(g, 'GROUP BY'));
  const having = q.having && expandItem(q.having);
  const orderBy = q.orderBy.map((o) => ({ expr: positional(o.expr, 'ORDER BY'), descending: o.descending }));

  const binder = new Binder(table, columns);
  const aggregated = groupBy.length > 0 || [...selected, ...(having ? [having] : []), ...orderBy.map((o) => o.expr)].some((e) => binder.hasAggregate(e));
  if (having && !aggregated) throw new QueryError('query', 'HAVING needs GROUP BY or an aggregate function.');

  const userFilter = where ? binder.row(where, 'WHERE') : undefined;
  const groupBound = groupBy.map((g) => binder.row(g, 'GROUP BY'));
  const level = (e: Expr, clause: string): Bound => (aggregated ? binder.group(e, groupBy, clause) : binder.row(e, clause));
  const plannedColumns = selected.map((e, i) => ({ name: names[i]!, expr: level(e, 'SELECT') }));
  const plannedHaving = having ? binder.group(having, groupBy, 'HAVING') : undefined;
  const plannedOrder = orderBy.map((o) => ({ expr: level(o.expr, 'ORDER BY'), descending: o.descending }));

  const range = scanRange(userFilter, table, options);
  return {
    table,
    filter: scopeFilter(columns, options, userFilter),
    ...range,
    aggregated,
    groupBy: groupBound,
    aggregates: binder.aggregates,
    columns: plannedColumns,
    ...(plannedHaving ? { having: plannedHaving } : {}),
    orderBy: plannedOrder,
    distinct: q.distinct,
    limit: Math.min(q.limit ?? options.maxResultRows, options.maxResultRows),
    offset: q.offset ?? 0,
    usesKeyspace: binder.usesKeyspace,
  };
}

/** workspace_id = <workspace> [AND api_id IN (<scope>)] [AND (<the query's WHERE>)]. */
function scopeFilter(columns: ReadonlyMap<string, Column>, options: PlanOptions, userFilter: Bound | undefined): Bound {
  const column = (name: string): Bound => ({ kind: 'column', column: columns.get(name)! });
  let filter: Bound = { kind: 'binary', op: '=', left: column('workspace_id'), right: { kind: 'const', value: options.workspaceId } };
  if (options.apiIds !== null) {
    const list: Bound[] = options.apiIds.map((id) => ({ kind: 'const', value: id }));
    filter = { kind: 'binary', op: 'and', left: filter, right: { kind: 'in', operand: column('api_id'), list, negated: false } };
  }
  return userFilter ? { kind: 'binary', op: 'and', left: filter, right: userFilter } : filter;
}

/**
 * The part of the store to scan. Every lower bound on `time` anywhere in WHERE must lie within
 * the look-back (else query_range_exceeds_retention, as Unkey); the bounds of top-level AND terms
 * narrow the scan, which never starts before the look-back. On a rollup table the look-back
 * starts at the bucket that contains its first instant.
 */
function scanRange(filter: Bound | undefined, table: Table, options: PlanOptions): { fromMs: number; toMs?: number } {
  // From the instant now() names (whole seconds, as in ClickHouse), so that
  // `time >= now() - INTERVAL <retention> DAY` is exactly the look-back, never beyond it.
  const since = startOf('second', options.now) - options.retentionMs;
  const earliest = table.granularity === null ? since : bucketStart(table.granularity, since);
  const timeOf = (b: Bound): number | undefined => {
    if (!isConstant(b)) return undefined;
    try {
      return asTime(evaluate(b, { now: options.now }), 'time') ?? undefined;
    } catch (err) {
      if (err instanceof QueryError) return undefined;
      throw err;
    }
  };
  const bounds = (b: Bound): { from?: number; to?: number } => {
    if (b.kind === 'between' && !b.negated && isTime(b.operand)) {
      const low = timeOf(b.low);
      const high = timeOf(b.high);
      return { ...(low !== undefined ? { from: Math.ceil(low) } : {}), ...(high !== undefined ? { to: Math.floor(high) + 1 } : {}) };
    }
    if (b.kind !== 'binary' || !['=', '<', '<=', '>', '>='].includes(b.op)) return {};
    const flipped = isTime(b.right) && !isTime(b.left);
    if (!flipped && !isTime(b.left)) return {};
    const value = timeOf(flipped ? b.left : b.right);
    if (value === undefined) return {};
    const op = flipped ? ({ '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as Record<string, string>)[b.op] ?? b.op : b.op;
    switch (op) {
      case '>=': return { from: Math.ceil(value) };
      case '>': return { from: Math.floor(value) + 1 };
      case '<': return { to: Math.ceil(value) };
      case '<=': return { to: Math.floor(value) + 1 };
      default: return { from: Math.ceil(value), to: Math.floor(value) + 1 };
    }
  };
  if (filter) {
    walk(filter, (b) => {
      const { from } = bounds(b);
      if (from !== undefined && from < earliest) throw retentionError(from, earliest, options.retentionMs);
    });
  }
  let fromMs = earliest;
  let toMs: number | undefined;
  for (const term of filter ? conjuncts(filter) : []) {
    const { from, to } = bounds(term);
    if (from !== undefined) fromMs = Math.max(fromMs, from);
    if (to !== undefined) toMs = toMs === undefined ? to : Math.min(toMs, to);
  }
  return { fromMs, ...(toMs !== undefined ? { toMs } : {}) };
}

const isTime = (b: Bound): boolean => b.kind === 'column' && b.column.name === 'time';

const day = (ms: number): string => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString().slice(0, 16).replace('T', ' ');
};

function retentionError(asked: number, earliest: number, retentionMs: number): QueryError {
  const days = Math.round(retentionMs / DAY_MS);
  return new QueryError('retention', `Cannot query data older than ${days} days. Your query attempts to access data from ${day(asked)}, `
    + `but only data from ${day(earliest)} onwards is available (ANALYTICS_RETENTION_DAYS).`);
}

