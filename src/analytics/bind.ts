/**
 * Binding: from syntax (sql/ast.ts, aliases already expanded by the planner) to the bound tree
 * the executor evaluates, with columns of the table and functions of the catalogue resolved.
 *
 * Row level (WHERE, GROUP BY, arguments of aggregates): columns are read from each row,
 * aggregate functions are refused. Group level (SELECT, HAVING, ORDER BY of an aggregated
 * query): an expression equal to a GROUP BY expression reads the group's value, an aggregate
 * call reads its result, and any other column is refused, as in ClickHouse.
 */
import type { BinaryOp, Expr, IntervalUnit } from './sql/ast.js';
import { QueryError } from './sql/errors.js';
import { AGGREGATES, FUNCTION_NAMES, SCALARS, type AggregateFunction, type ScalarFunction } from './sql/functions.js';
import type { Value } from './sql/values.js';
import type { Column, Table } from './tables.js';

export type Bound =
  | { readonly kind: 'const'; readonly value: Value }
  | { readonly kind: 'column'; readonly column: Column }
  | { readonly kind: 'scalar'; readonly fn: ScalarFunction; readonly args: readonly Bound[] }
  /** The result of the plan's aggregate call `index`, in the group being output. */
  | { readonly kind: 'aggregate'; readonly index: number }
  /** The value of GROUP BY expression `index`, in the group being output. */
  | { readonly kind: 'group'; readonly index: number }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Bound; readonly right: Bound }
  | { readonly kind: 'not'; readonly operand: Bound }
  | { readonly kind: 'negate'; readonly operand: Bound }
  | { readonly kind: 'in'; readonly operand: Bound; readonly list: readonly Bound[]; readonly negated: boolean }
  | { readonly kind: 'between'; readonly operand: Bound; readonly low: Bound; readonly high: Bound; readonly negated: boolean }
  | { readonly kind: 'like'; readonly operand: Bound; readonly pattern: Bound; readonly negated: boolean; readonly caseInsensitive: boolean }
  | { readonly kind: 'isNull'; readonly operand: Bound; readonly negated: boolean }
  | { readonly kind: 'interval'; readonly amount: Bound; readonly unit: IntervalUnit }
  | { readonly kind: 'case'; readonly operand?: Bound; readonly whens: readonly { readonly when: Bound; readonly then: Bound }[]; readonly otherwise?: Bound }
  | { readonly kind: 'array'; readonly items: readonly Bound[] };

interface Mode {
  readonly level: 'row' | 'group';
  /** The clause, for messages. */
  readonly clause: string;
  readonly groupKeys?: ReadonlyMap<string, number>;
  readonly inAggregate?: boolean;
  /** The argument of avgMerge: the only place latency_avg may be read. */
  readonly avgMergeArg?: boolean;
}

/** Equal for expressions that compute the same thing (function names are case-insensitive). */
export const exprKey = (e: Expr): string => JSON.stringify(e, (_key, value: unknown) => {
  const node = value as { kind?: string; name?: string } | null;
  if (node?.kind === 'call') return { ...node, name: node.name!.toLowerCase() };
  if (node?.kind === 'name') return { kind: 'name', name: node.name };
  return value;
});

const isAggregateName = (name: string): boolean => AGGREGATES[name.toLowerCase()] !== undefined;

export class Binder {
  readonly aggregates: { fn: AggregateFunction; distinct: boolean; args: readonly Bound[] }[] = [];
  usesKeyspace = false;
  private readonly aggregateIndex = new Map<string, number>();

  constructor(private readonly table: Table, private readonly columns: ReadonlyMap<string, Column>) {}

  hasAggregate(e: Expr): boolean {
    let found = false;
    visit(e, (node) => { if (node.kind === 'call' && isAggregateName(node.name)) found = true; });
    return found;
  }

  row(e: Expr, clause: string): Bound {
    return this.bind(e, { level: 'row', clause });
  }

  group(e: Expr, groupBy: readonly Expr[], clause: string): Bound {
    return this.bind(e, { level: 'group', clause, groupKeys: new Map(groupBy.map((g, i) => [exprKey(g), i])) });
  }

  private bind(e: Expr, m: Mode): Bound {
    if (m.level === 'group' && !this.hasAggregate(e)) {
      const index = m.groupKeys!.get(exprKey(e));
      if (index !== undefined) return { kind: 'group', index };
    }
    const child = (c: Expr): Bound => this.bind(c, { ...m, avgMergeArg: false });
    switch (e.kind) {
      case 'literal': return { kind: 'const', value: e.value };
      case 'name': return this.column(e.name, m);
      case 'star': throw new QueryError('query', `* is only allowed as count(*) (in ${m.clause}).`);
      case 'call': return this.call(e, m);
      case 'binary': return { kind: 'binary', op: e.op, left: child(e.left), right: child(e.right) };
      case 'not': return { kind: 'not', operand: child(e.operand) };
      case 'negate': return { kind: 'negate', operand: child(e.operand) };
      case 'in': return { kind: 'in', operand: child(e.operand), list: e.list.map(child), negated: e.negated };
      case 'between': return { kind: 'between', operand: child(e.operand), low: child(e.low), high: child(e.high), negated: e.negated };
      case 'like': return { kind: 'like', operand: child(e.operand), pattern: child(e.pattern), negated: e.negated, caseInsensitive: e.caseInsensitive };
      case 'isNull': return { kind: 'isNull', operand: child(e.operand), negated: e.negated };
      case 'interval': return { kind: 'interval', amount: child(e.amount), unit: e.unit };
      case 'array': return { kind: 'array', items: e.items.map(child) };
      case 'case': return {
        kind: 'case',
        whens: e.whens.map((w) => ({ when: child(w.when), then: child(w.then) })),
        ...(e.operand ? { operand: child(e.operand) } : {}),
        ...(e.otherwise ? { otherwise: child(e.otherwise) } : {}),
      };
    }
  }

  private column(name: string, m: Mode): Bound {
    const column = this.columns.get(name);
    if (!column) throw unknownColumn(name, this.table);
    if (m.level === 'group') {
      throw new QueryError('query', `Column '${name}' in ${m.clause} must be in GROUP BY or inside an aggregate function such as sum() or count().`);
    }
    if (column.type === 'avgState' && !m.avgMergeArg) {
      throw new QueryError('query', `Column '${name}' is an aggregate state: read it as avgMerge(${name}).`);
    }
    if (name === 'key_space_id') this.usesKeyspace = true;
    return { kind: 'column', column };
  }

  private call(e: Extract<Expr, { kind: 'call' }>, m: Mode): Bound {
    const name = e.name.toLowerCase();
    const aggregate = AGGREGATES[name];
    const arity = (min: number, max: number, given: number): void => {
      if (given < min || given > max) {
        const wanted = min === max ? `${min}` : `${min} to ${max}`;
        throw new QueryError('query', `${e.name}() takes ${wanted} argument${max === 1 ? '' : 's'}; it was given ${given}.`);
      }
    };
    if (aggregate) {
      if (m.level === 'row') {
        throw new QueryError('query', m.inAggregate
          ? `Aggregate function ${e.name}() cannot be used inside another aggregate function.`
          : `Aggregate function ${e.name}() is not allowed in ${m.clause}${m.clause === 'WHERE' ? ' (use HAVING)' : ''}.`);
      }
      const star = e.args.length === 1 && e.args[0]!.kind === 'star';
      if (star && name !== 'count') throw new QueryError('query', `${e.name}(*) is not allowed; only count(*) takes *.`);
      const args = star ? [] : e.args;
      arity(aggregate.minArgs, aggregate.maxArgs, args.length);
      if (e.distinct && !aggregate.allowsDistinct) throw new QueryError('query', `DISTINCT is not allowed in ${e.name}(); use count(DISTINCT x) or uniq(x).`);
      if (name === 'avgmerge' && !(args[0]?.kind === 'name' && this.columns.get(args[0].name)?.type === 'avgState')) {
        throw new QueryError('query', `avgMerge() reads the latency_avg column of the rollup tables, nothing else.`);
      }
      const key = exprKey(e);
      let index = this.aggregateIndex.get(key);
      if (index === undefined) {
        const bound = args.map((a) => this.bind(a, { level: 'row', clause: `${e.name}()`, inAggregate: true, avgMergeArg: name === 'avgmerge' }));
        index = this.aggregates.push({ fn: aggregate, distinct: e.distinct, args: bound }) - 1;
        this.aggregateIndex.set(key, index);
      }
      return { kind: 'aggregate', index };
    }
    if (e.distinct) throw new QueryError('query', `DISTINCT is only allowed in aggregate functions, not in ${e.name}().`);
    const args = e.args.map((a) => this.bind(a, { ...m, avgMergeArg: false }));
    if (name === 'array') return { kind: 'array', items: args };
    const scalar = SCALARS[name];
    if (!scalar) throw new QueryError('function', `Function '${e.name}' is not supported. Supported functions: ${FUNCTION_NAMES}.`);
    arity(scalar.minArgs, scalar.maxArgs, args.length);
    return { kind: 'scalar', fn: scalar, args };
  }
}

function unknownColumn(name: string, table: Table): QueryError {
  if (name === 'latency_p75' || name === 'latency_p99') {
    return new QueryError('query', `Column '${name}' is not kept by keygate (no latency percentiles); use avgMerge(latency_avg).`);
  }
  if (table.granularity === null && (name === 'count' || name === 'latency_avg')) {
    return new QueryError('query', `Column '${name}' exists in the rollup tables (key_verifications_per_*_v1) only; on ${table.name} use count(*) or avg(latency).`);
  }
  return new QueryError('query', `Unknown column '${name}' in ${table.name}. Its columns: ${table.columns.map((c) => c.name).join(', ')}.`);
}

/** Calls `f` on every node of a syntax tree. */
function visit(e: Expr, f: (node: Expr) => void): void {
  f(e);
  mapChildren(e, (c) => { visit(c, f); return c; });
}

/** The same node with each child replaced by `f(child)`. */
export function mapChildren(e: Expr, f: (child: Expr) => Expr): Expr {
  switch (e.kind) {
    case 'literal': case 'name': case 'star': return e;
    case 'call': return { ...e, args: e.args.map(f) };
    case 'binary': return { ...e, left: f(e.left), right: f(e.right) };
    case 'not': case 'negate': return { ...e, operand: f(e.operand) };
    case 'in': return { ...e, operand: f(e.operand), list: e.list.map(f) };
    case 'between': return { ...e, operand: f(e.operand), low: f(e.low), high: f(e.high) };
    case 'like': return { ...e, operand: f(e.operand), pattern: f(e.pattern) };
    case 'isNull': return { ...e, operand: f(e.operand) };
    case 'interval': return { ...e, amount: f(e.amount) };
    case 'array': return { ...e, items: e.items.map(f) };
    case 'case': return {
      ...e,
      whens: e.whens.map((w) => ({ when: f(w.when), then: f(w.then) })),
      ...(e.operand ? { operand: f(e.operand) } : {}),
      ...(e.otherwise ? { otherwise: f(e.otherwise) } : {}),
    };
  }
}

/** The children of a bound node. */
function childrenOf(b: Bound): readonly Bound[] {
  switch (b.kind) {
    case 'const': case 'column': case 'aggregate': case 'group': return [];
    case 'scalar': return b.args;
    case 'binary': return [b.left, b.right];
    case 'not': case 'negate': case 'isNull': return [b.operand];
    case 'in': return [b.operand, ...b.list];
    case 'between': return [b.operand, b.low, b.high];
    case 'like': return [b.operand, b.pattern];
    case 'interval': return [b.amount];
    case 'array': return b.items;
    case 'case': return [...(b.operand ? [b.operand] : []), ...b.whens.flatMap((w) => [w.when, w.then]), ...(b.otherwise ? [b.otherwise] : [])];
  }
}

/** Calls `f` on every node of a bound tree. */
export function walk(b: Bound, f: (node: Bound) => void): void {
  f(b);
  for (const c of childrenOf(b)) walk(c, f);
}

/** True when the value does not depend on a row or a group (now() and literals only). */
export function isConstant(b: Bound): boolean {
  let constant = true;
  walk(b, (node) => { if (node.kind === 'column' || node.kind === 'aggregate' || node.kind === 'group') constant = false; });
  return constant;
}

/** The terms of a top-level AND chain. */
export function conjuncts(b: Bound): Bound[] {
  return b.kind === 'binary' && b.op === 'and' ? [...conjuncts(b.left), ...conjuncts(b.right)] : [b];
}
