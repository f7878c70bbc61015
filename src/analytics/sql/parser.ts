/**
 * Recursive-descent parser of keygate's analytics SQL: one ClickHouse-style SELECT over one
 * table, with WHERE, GROUP BY, HAVING, ORDER BY and LIMIT [OFFSET]. What ClickHouse has and this
 * subset does not (JOIN, UNION, WITH, subqueries, window functions, SETTINGS, FORMAT, …) is
 * refused with a QueryError naming the construct; other statements are refused as not a SELECT.
 *
 * Precedence, loosest first: OR, AND, NOT, comparisons (= != <> < <= > >=, [NOT] IN, [NOT]
 * BETWEEN, [NOT] LIKE/ILIKE, IS [NOT] NULL), + -, * / %, unary minus.
 */
import type { BinaryOp, Expr, IntervalUnit, OrderItem, SelectItem, SelectQuery } from './ast.js';
import { PUBLIC_TABLES, QueryError, unsupported } from './errors.js';
import { RESERVED, TokenCursor, UNSUPPORTED_CLAUSES } from './cursor.js';
import { tokenize, type Token } from './tokens.js';

/** Unkey's structural limits. */
export const MAX_QUERY_CHARS = 16 * 1024;
const MAX_NODES = 2_000;
const MAX_COLUMNS = 64;

const STATEMENTS = new Set(['INSERT', 'UPDATE', 'DELETE', 'DROP', 'ALTER', 'CREATE', 'TRUNCATE', 'GRANT', 'REVOKE', 'SET',
  'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'OPTIMIZE', 'RENAME', 'ATTACH', 'DETACH', 'SYSTEM', 'KILL', 'USE', 'EXCHANGE',
  'REPLACE', 'EXISTS', 'CHECK', 'WATCH', 'MOVE', 'UNDROP', 'BACKUP', 'RESTORE']);

const UNITS: Readonly<Record<string, IntervalUnit>> = {
  SECOND: 'second', MINUTE: 'minute', HOUR: 'hour', DAY: 'day', WEEK: 'week', MONTH: 'month', QUARTER: 'quarter', YEAR: 'year',
};

const COMPARISONS: Readonly<Record<string, BinaryOp>> = { '=': '=', '==': '=', '!=': '!=', '<>': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

export function parseQuery(sql: string): SelectQuery {
  if (sql.length > MAX_QUERY_CHARS) throw new QueryError('query', `The query is ${sql.length} characters long; at most ${MAX_QUERY_CHARS} are allowed.`);
  return new Parser(sql, tokenize(sql)).query();
}

export function intervalUnit(word: string): IntervalUnit | undefined {
  const upper = word.toUpperCase();
  return UNITS[upper] ?? (upper.endsWith('S') ? UNITS[upper.slice(0, -1)] : undefined);
}

class Parser extends TokenCursor {
  constructor(private readonly sql: string, tokens: readonly Token[]) {
    super(tokens, MAX_NODES);
  }

  query(): SelectQuery {
    const first = this.peek();
    if (first.kind === 'word' && first.upper === 'WITH') throw unsupported('WITH (common table expressions)');
    if (first.kind === 'word' && STATEMENTS.has(first.upper)) {
      throw new QueryError('query_type', `Only SELECT queries are allowed; this is ${first.upper}.`);
    }
    if (this.isOp('(')) throw unsupported('A query in parentheses');
    if (!this.acceptWord('SELECT')) throw new QueryError('query_type', `Only SELECT queries are allowed; the query must start with SELECT (found ${this.describe(first)}).`);
    let distinct = false;
    if (this.acceptWord('DISTINCT')) {
      distinct = true;
      if (this.isWord('ON')) throw unsupported('DISTINCT ON');
    } else this.acceptWord('ALL');
    let star = false;
    const items: SelectItem[] = [];
    if (this.isOp('*')) {
      this.next();
      star = true;
      if (this.isOp(',')) throw unsupported('* together with other columns', 'list the columns instead');
    } else {
      do items.push(this.selectItem()); while (this.acceptOp(','));
      if (items.length > MAX_COLUMNS) throw new QueryError('query', `The query selects ${items.length} columns; at most ${MAX_COLUMNS} are allowed.`);
    }
    if (!this.acceptWord('FROM')) {
      if (this.peek().kind === 'eof') throw unsupported('SELECT without FROM', `query one of ${PUBLIC_TABLES}`);
      this.unexpected('FROM');
    }
    const { table, alias } = this.table();
    const where = this.acceptWord('WHERE') ? this.expr() : undefined;
    const groupBy: Expr[] = [];
    if (this.acceptWords('GROUP', 'BY')) {
      if (this.isWord('ALL')) throw unsupported('GROUP BY ALL', 'name the grouping columns');
      do groupBy.push(this.expr()); while (this.acceptOp(','));
      if (this.isWord('WITH')) throw unsupported(`GROUP BY … WITH ${this.peek(1).upper || '…'}`);
    }
    const having = this.acceptWord('HAVING') ? this.expr() : undefined;
    const orderBy: OrderItem[] = [];
    if (this.acceptWords('ORDER', 'BY')) do orderBy.push(this.orderItem()); while (this.acceptOp(','));
    let limit: number | undefined;
    let offset: number | undefined;
    if (this.acceptWord('LIMIT')) {
      limit = this.count('LIMIT');
      if (this.acceptOp(',')) {
        offset = limit;
        limit = this.count('LIMIT');
      } else if (this.acceptWord('OFFSET')) offset = this.count('OFFSET');
      if (this.isWord('BY')) throw unsupported('LIMIT … BY');
      if (this.isWord('WITH')) throw unsupported('LIMIT … WITH TIES');
    } else if (this.acceptWord('OFFSET')) offset = this.count('OFFSET');
    if (this.acceptOp(';') && this.peek().kind !== 'eof') throw new QueryError('query', 'Only one statement is allowed per query.');
    if (this.peek().kind !== 'eof') this.unexpected('the end of the query');
    return {
      distinct, star, items, table,
      ...(alias !== undefined ? { tableAlias: alias } : {}),
      ...(where ? { where } : {}),
      groupBy,
      ...(having ? { having } : {}),
      orderBy,
      ...(limit !== undefined ? { limit } : {}),
      ...(offset !== undefined ? { offset } : {}),
    };
  }

  private selectItem(): SelectItem {
    const start = this.peek().start;
    const expr = this.expr();
    const text = this.sql.slice(start, this.tokens[this.at - 1]!.end).replace(/\s+/g, ' ');
    const alias = this.alias();
    return { expr, text, ...(alias !== undefined ? { alias } : {}) };
  }

  private alias(): string | undefined {
    if (this.acceptWord('AS')) return this.identifier('an alias after AS');
    const t = this.peek();
    if (t.kind === 'quoted' || (t.kind === 'word' && !RESERVED.has(t.upper))) return this.identifier('an alias');
    return undefined;
  }

  private table(): { table: string; alias?: string } {
    if (this.isOp('(')) throw unsupported(this.isWord('SELECT', 1) ? 'A subquery in FROM' : 'A parenthesized FROM');
    const name = this.identifier('a table name');
    if (this.acceptOp('.')) {
      const qualified = `${name}.${this.identifier('a table name')}`;
      throw new QueryError('table', `Table '${qualified}' is not allowed: query ${PUBLIC_TABLES}.`);
    }
    if (this.isOp('(')) throw new QueryError('function', `Table function '${name}' is not allowed: query ${PUBLIC_TABLES}.`);
    if (this.isOp(',')) throw unsupported('Several tables in FROM (a JOIN)');
    const t = this.peek();
    const clause = t.kind === 'word' ? UNSUPPORTED_CLAUSES[t.upper] : undefined;
    if (clause) throw unsupported(clause);
    const alias = this.alias();
    const after = this.peek();
    const afterClause = after.kind === 'word' ? UNSUPPORTED_CLAUSES[after.upper] : undefined;
    if (afterClause) throw unsupported(afterClause);
    return { table: name, ...(alias !== undefined ? { alias } : {}) };
  }

  private orderItem(): OrderItem {
    const expr = this.expr();
    let descending = false;
    if (this.acceptWord('DESC') || this.acceptWord('DESCENDING')) descending = true;
    else if (!this.acceptWord('ASC')) this.acceptWord('ASCENDING');
    if (this.isWord('NULLS')) throw unsupported('NULLS FIRST/LAST');
    if (this.isWord('COLLATE')) throw unsupported('COLLATE');
    if (this.isWord('WITH')) throw unsupported('ORDER BY … WITH FILL');
    return { expr, descending };
  }

  private count(clause: string): number {
    const t = this.peek();
    if (t.kind !== 'number' || !/^\d+$/.test(t.text)) throw unsupported(`${clause} ${this.describe(t)}`, `${clause} takes a whole number`);
    this.next();
    return Number(t.text);
  }

  // Expressions, loosest binding first.

  expr(): Expr {
    return this.nested(() => {
      let left = this.and();
      while (this.acceptWord('OR')) left = this.node({ kind: 'binary', op: 'or', left, right: this.and() });
      return left;
    });
  }

  private and(): Expr {
    let left = this.not();
    while (this.acceptWord('AND')) left = this.node({ kind: 'binary', op: 'and', left, right: this.not() });
    return left;
  }

  private not(): Expr {
    if (this.acceptWord('NOT')) return this.node({ kind: 'not', operand: this.nested(() => this.not()) });
    return this.comparison();
  }

  private comparison(): Expr {
    const operand = this.additive();
    const t = this.peek();
    if (t.kind === 'op' && COMPARISONS[t.text]) {
      this.next();
      return this.node({ kind: 'binary', op: COMPARISONS[t.text]!, left: operand, right: this.additive() });
    }
    if (this.isWord('GLOBAL')) throw unsupported('GLOBAL IN');
    const negated = this.isWord('NOT') && this.isWord(['IN', 'BETWEEN', 'LIKE', 'ILIKE'], 1);
    if (negated) this.next();
    if (this.acceptWord('IN')) {
      if (!this.acceptOp('(')) throw unsupported('IN over a table or a column', 'write the values in parentheses: IN (\'a\', \'b\')');
      if (this.isWord('SELECT')) throw unsupported('IN with a subquery');
      const list: Expr[] = [];
      if (!this.isOp(')')) do list.push(this.expr()); while (this.acceptOp(','));
      this.expectOp(')');
      return this.node({ kind: 'in', operand, list, negated });
    }
    if (this.acceptWord('BETWEEN')) {
      const low = this.additive();
      if (!this.acceptWord('AND')) this.unexpected('AND of BETWEEN');
      return this.node({ kind: 'between', operand, low, high: this.additive(), negated });
    }
    if (this.isWord(['LIKE', 'ILIKE'])) {
      const caseInsensitive = this.next().upper === 'ILIKE';
      return this.node({ kind: 'like', operand, pattern: this.additive(), negated, caseInsensitive });
    }
    if (this.acceptWord('IS')) {
      const isNot = this.acceptWord('NOT');
      if (!this.acceptWord('NULL')) this.unexpected('NULL after IS');
      return this.node({ kind: 'isNull', operand, negated: isNot });
    }
    return operand;
  }

  private additive(): Expr {
    let left = this.multiplicative();
    for (;;) {
      if (this.isOp('||')) throw unsupported('The || operator');
      const op = this.acceptOp('+') ? '+' : this.acceptOp('-') ? '-' : undefined;
      if (!op) return left;
      left = this.node({ kind: 'binary', op, left, right: this.multiplicative() });
    }
  }

  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const op = this.acceptOp('*') ? '*' : this.acceptOp('/') ? '/' : this.acceptOp('%') ? '%' : undefined;
      if (!op) return left;
      left = this.node({ kind: 'binary', op, left, right: this.unary() });
    }
  }

  private unary(): Expr {
    if (this.acceptOp('-')) return this.node({ kind: 'negate', operand: this.nested(() => this.unary()) });
    if (this.acceptOp('+')) return this.nested(() => this.unary());
    const expr = this.primary();
    if (this.isOp('[')) throw unsupported('Array subscripts (x[n])', 'use has(), hasAny() or hasAll()');
    if (this.isOp('::')) throw unsupported('Casts with ::');
    if (this.isOp('->')) throw unsupported('Lambda functions (x -> …)');
    return expr;
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.kind === 'number') {
      this.next();
      return this.node({ kind: 'literal', value: Number(t.text) });
    }
    if (t.kind === 'string') {
      this.next();
      return this.node({ kind: 'literal', value: t.text });
    }
    if (t.kind === 'op') {
      if (this.acceptOp('(')) {
        if (this.isWord('SELECT')) throw unsupported('A subquery');
        const inner = this.expr();
        if (this.isOp(',')) throw unsupported('Tuples ((a, b))');
        this.expectOp(')');
        return inner;
      }
      if (this.acceptOp('[')) {
        const items: Expr[] = [];
        if (!this.isOp(']')) do items.push(this.expr()); while (this.acceptOp(','));
        this.expectOp(']');
        return this.node({ kind: 'array', items });
      }
      this.unexpected('a value, a column or a function');
    }
    if (t.kind === 'word') {
      switch (t.upper) {
        case 'NULL': this.next(); return this.node({ kind: 'literal', value: null });
        case 'TRUE': this.next(); return this.node({ kind: 'literal', value: 1 });
        case 'FALSE': this.next(); return this.node({ kind: 'literal', value: 0 });
        case 'CASE': this.next(); return this.caseExpr();
        case 'INTERVAL': this.next(); return this.interval();
        case 'SELECT': throw unsupported('A subquery');
        case 'EXISTS': throw unsupported('EXISTS (subqueries)');
        case 'CAST': throw unsupported('CAST');
        default:
          if (RESERVED.has(t.upper) && !this.isOp('(', 1)) this.unexpected('a value, a column or a function');
      }
    }
    const name = this.identifier('a value, a column or a function');
    if (t.kind === 'word' && this.isOp('(')) return this.call(name);
    if (this.acceptOp('.')) {
      if (this.isOp('*')) throw unsupported(`${name}.*`);
      return this.node({ kind: 'name', name: this.identifier('a column name'), table: name });
    }
    return this.node({ kind: 'name', name });
  }

  private call(name: string): Expr {
    this.expectOp('(');
    let distinct = false;
    const args: Expr[] = [];
    if (this.acceptWord('DISTINCT')) distinct = true;
    if (this.isOp('*') && this.isOp(')', 1)) {
      this.next();
      args.push(this.node({ kind: 'star' }));
    } else if (!this.isOp(')')) {
      do args.push(this.expr()); while (this.acceptOp(','));
    }
    this.expectOp(')');
    if (this.isOp('(')) throw unsupported(`Parametric aggregate functions (${name}(…)(…))`);
    if (this.isWord('OVER')) throw unsupported('Window functions (OVER)');
    return this.node({ kind: 'call', name, args, distinct });
  }

  private caseExpr(): Expr {
    const operand = this.isWord('WHEN') ? undefined : this.expr();
    const whens: { when: Expr; then: Expr }[] = [];
    while (this.acceptWord('WHEN')) {
      const when = this.expr();
      if (!this.acceptWord('THEN')) this.unexpected('THEN');
      whens.push({ when, then: this.expr() });
    }
    if (whens.length === 0) this.unexpected('WHEN');
    const otherwise = this.acceptWord('ELSE') ? this.expr() : undefined;
    if (!this.acceptWord('END')) this.unexpected('END of CASE');
    return this.node({ kind: 'case', whens, ...(operand ? { operand } : {}), ...(otherwise ? { otherwise } : {}) });
  }

  /** INTERVAL <amount> <unit>, or INTERVAL '<amount> <unit>'. */
  private interval(): Expr {
    const t = this.peek();
    if (t.kind === 'string') {
      const match = /^\s*(\d+)\s+([A-Za-z]+)\s*$/.exec(t.text);
      const unit = match ? intervalUnit(match[2]!) : undefined;
      if (!match || !unit) throw new QueryError('query', `INTERVAL '${t.text}' is not an interval such as INTERVAL 7 DAY.`);
      this.next();
      return this.node({ kind: 'interval', amount: this.node({ kind: 'literal', value: Number(match[1]) }), unit });
    }
    const amount = this.unary();
    const u = this.peek();
    const unit = u.kind === 'word' ? intervalUnit(u.text) : undefined;
    if (!unit) throw new QueryError('query', `INTERVAL needs a unit (SECOND, MINUTE, HOUR, DAY, WEEK, MONTH, QUARTER or YEAR); found ${this.describe(u)}.`);
    this.next();
    return this.node({ kind: 'interval', amount, unit });
  }
}
