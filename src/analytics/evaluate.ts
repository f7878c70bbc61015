/**
 * Evaluates a bound expression (bind.ts) for one row, or for one group of an aggregated query.
 * Comparisons and conditions follow ClickHouse: 1 and 0 for true and false, NULL propagates
 * (a NULL condition does not pass).
 */
import type { Bound } from './bind.js';
import { QueryError } from './sql/errors.js';
import { arithmetic, compare, equal, show, truthy, type Value } from './sql/values.js';
import type { RowContext } from './tables.js';

export interface Env {
  readonly now: number;
  /** The row being read (row level). */
  readonly row?: unknown;
  readonly ctx?: RowContext;
  /** The group being output (group level): its GROUP BY values and aggregate results. */
  readonly groupValues?: readonly Value[];
  readonly aggregateValues?: readonly Value[];
}

const bool = (b: boolean): number => (b ? 1 : 0);

type LikeToken = { readonly any: true } | { readonly one: true } | { readonly char: string };

/** LIKE patterns tokenized once per pattern text: % any run, _ one character, a backslash escapes the next. */
const likeCache = new Map<string, LikeToken[]>();

function likeTokens(pattern: string): LikeToken[] {
  let tokens = likeCache.get(pattern);
  if (!tokens) {
    tokens = [];
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!;
      if (c === '\\' && i + 1 < pattern.length) tokens.push({ char: pattern[++i]! });
      else if (c === '%') tokens.push({ any: true });
      else if (c === '_') tokens.push({ one: true });
      else tokens.push({ char: c });
    }
    if (likeCache.size > 1_000) likeCache.clear();
    likeCache.set(pattern, tokens);
  }
  return tokens;
}

/**
 * Wildcard matching without backtracking blow-up (a regex of `%a%a%a…` would be exponential):
 * on a mismatch, only the last % is retried one character further, so the cost is at most
 * text length × pattern length.
 */
function like(text: string, pattern: readonly LikeToken[]): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (i < text.length) {
    const t = pattern[j];
    if (t && ('one' in t || ('char' in t && t.char === text[i]))) {
      i++;
      j++;
    } else if (t && 'any' in t) {
      star = j++;
      mark = i;
    } else if (star !== -1) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < pattern.length && 'any' in pattern[j]!) j++;
  return j === pattern.length;
}

export function evaluate(b: Bound, env: Env): Value {
  switch (b.kind) {
    case 'const': return b.value;
    case 'column': return b.column.read(env.row, env.ctx!);
    case 'group': return env.groupValues![b.index]!;
    case 'aggregate': return env.aggregateValues![b.index]!;
    case 'scalar': return b.fn.apply(b.args.map((a) => evaluate(a, env)), env.now);
    case 'array': return b.items.map((a) => evaluate(a, env));
    case 'negate': {
      const v = evaluate(b.operand, env);
      if (v === null) return null;
      if (typeof v !== 'number') throw new QueryError('query', `Cannot negate ${show(v)}.`);
      return -v;
    }
    case 'not': {
      const v = evaluate(b.operand, env);
      return v === null ? null : bool(!truthy(v, 'NOT'));
    }
    case 'binary': return binary(b, env);
    case 'in': {
      const v = evaluate(b.operand, env);
      if (v === null) return null;
      const found = b.list.some((item) => equal(v, evaluate(item, env)));
      return bool(found !== b.negated);
    }
    case 'between': {
      const v = evaluate(b.operand, env);
      const low = compare(v, evaluate(b.low, env));
      const high = compare(v, evaluate(b.high, env));
      if (low === null || high === null) return null;
      return bool((low >= 0 && high <= 0) !== b.negated);
    }
    case 'like': {
      const v = evaluate(b.operand, env);
      const p = evaluate(b.pattern, env);
      if (v === null || p === null) return null;
      if (typeof v !== 'string' || typeof p !== 'string') throw new QueryError('query', `LIKE compares strings; got ${show(v)} LIKE ${show(p)}.`);
      const hit = b.caseInsensitive ? like(v.toLowerCase(), likeTokens(p.toLowerCase())) : like(v, likeTokens(p));
      return bool(hit !== b.negated);
    }
    case 'isNull': return bool((evaluate(b.operand, env) === null) !== b.negated);
    case 'interval': {
      const amount = evaluate(b.amount, env);
      if (typeof amount !== 'number') throw new QueryError('query', `INTERVAL needs a number; got ${show(amount)}.`);
      return { kind: 'interval', unit: b.unit, amount };
    }
    case 'case': {
      const subject = b.operand ? evaluate(b.operand, env) : undefined;
      for (const { when, then } of b.whens) {
        const w = evaluate(when, env);
        const hit = subject === undefined ? truthy(w, 'WHEN') : subject !== null && w !== null && equal(subject, w);
        if (hit) return evaluate(then, env);
      }
      return b.otherwise ? evaluate(b.otherwise, env) : null;
    }
  }
}

function binary(b: Extract<Bound, { kind: 'binary' }>, env: Env): Value {
  if (b.op === 'and' || b.op === 'or') {
    const left = evaluate(b.left, env);
    const l = left === null ? null : truthy(left, b.op.toUpperCase());
    // Short circuit: false AND x, true OR x.
    if (l === (b.op === 'or')) return bool(l);
    const right = evaluate(b.right, env);
    const r = right === null ? null : truthy(right, b.op.toUpperCase());
    if (r === (b.op === 'or')) return bool(r);
    return l === null || r === null ? null : bool(b.op === 'and');
  }
  const left = evaluate(b.left, env);
  const right = evaluate(b.right, env);
  switch (b.op) {
    case '+': case '-': case '*': case '/': case '%':
      return arithmetic(b.op, left, right);
    default: {
      const c = compare(left, right);
      if (c === null) return null;
      switch (b.op) {
        case '=': return bool(c === 0);
        case '!=': return bool(c !== 0);
        case '<': return bool(c < 0);
        case '<=': return bool(c <= 0);
        case '>': return bool(c > 0);
        case '>=': return bool(c >= 0);
      }
    }
  }
}
