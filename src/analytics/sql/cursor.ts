/**
 * The token cursor the parser (sql/parser.ts) reads with: looking ahead, accepting words and
 * operators, and the errors for what it did not expect, naming a construct keygate does not
 * support where the unexpected word opens one.
 */
import type { Expr } from './ast.js';
import { QueryError, unsupported } from './errors.js';
import type { Token } from './tokens.js';

/** Words that cannot be a column name or an implicit alias. */
export const RESERVED = new Set(['SELECT', 'FROM', 'WHERE', 'GROUP', 'BY', 'HAVING', 'ORDER', 'LIMIT', 'OFFSET', 'UNION', 'EXCEPT',
  'INTERSECT', 'JOIN', 'INNER', 'LEFT', 'RIGHT', 'FULL', 'CROSS', 'OUTER', 'ARRAY', 'GLOBAL', 'ASOF', 'SEMI', 'ANTI',
  'PASTE', 'ON', 'USING', 'AS', 'AND', 'OR', 'NOT', 'IN', 'BETWEEN', 'LIKE', 'ILIKE', 'IS', 'CASE', 'WHEN', 'THEN', 'ELSE',
  'END', 'ASC', 'DESC', 'NULLS', 'SETTINGS', 'FORMAT', 'INTO', 'WITH', 'PREWHERE', 'SAMPLE', 'FINAL', 'QUALIFY', 'WINDOW',
  'INTERVAL', 'DISTINCT', 'OVER', 'COLLATE', 'FILL', 'FETCH', 'NULL', 'ALL', 'ANY']);

/** Clauses and modifiers ClickHouse has and this subset does not, by the word that opens them. */
export const UNSUPPORTED_CLAUSES: Readonly<Record<string, string>> = {
  JOIN: 'JOIN', INNER: 'JOIN', LEFT: 'JOIN', RIGHT: 'JOIN', FULL: 'JOIN', CROSS: 'JOIN', OUTER: 'JOIN', ASOF: 'JOIN',
  SEMI: 'JOIN', ANTI: 'JOIN', PASTE: 'JOIN', ANY: 'JOIN', ALL: 'JOIN', GLOBAL: 'GLOBAL JOIN', ARRAY: 'ARRAY JOIN',
  UNION: 'UNION', EXCEPT: 'EXCEPT', INTERSECT: 'INTERSECT', SETTINGS: 'SETTINGS', FORMAT: 'FORMAT', INTO: 'INTO OUTFILE',
  PREWHERE: 'PREWHERE', SAMPLE: 'SAMPLE', FINAL: 'FINAL', QUALIFY: 'QUALIFY', WINDOW: 'WINDOW (window functions)',
  WITH: 'WITH', FETCH: 'FETCH', USING: 'JOIN … USING', ON: 'JOIN … ON',
};

/** How deeply expressions may nest (parentheses, NOT, unary minus): far beyond any real query. */
const MAX_DEPTH = 64;

export class TokenCursor {
  protected at = 0;
  private nodes = 0;
  private depth = 0;

  constructor(protected readonly tokens: readonly Token[], private readonly maxNodes: number) {}

  /** Runs one level of nesting; refuses more than MAX_DEPTH (the recursion would exhaust the stack). */
  protected nested<T>(parse: () => T): T {
    if (++this.depth > MAX_DEPTH) throw new QueryError('query', `The query nests expressions more than ${MAX_DEPTH} levels deep.`);
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }


  protected node<E extends Expr>(expr: E): E {
    if (++this.nodes > this.maxNodes) throw new QueryError('query', `The query is too complex: more than ${this.maxNodes} expression nodes.`);
    return expr;
  }

  protected identifier(what: string): string {
    const t = this.peek();
    if (t.kind === 'quoted' || (t.kind === 'word' && !RESERVED.has(t.upper)) || (t.kind === 'word' && this.isOp('(', 1))) {
      this.next();
      return t.text;
    }
    return this.unexpected(what);
  }

  protected peek(ahead = 0): Token {
    return this.tokens[Math.min(this.at + ahead, this.tokens.length - 1)]!;
  }

  protected next(): Token {
    const t = this.peek();
    if (this.at < this.tokens.length - 1) this.at++;
    return t;
  }

  protected isWord(words: string | readonly string[], ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'word' && (typeof words === 'string' ? t.upper === words : words.includes(t.upper));
  }

  protected isOp(op: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'op' && t.text === op;
  }

  protected acceptWord(word: string): boolean {
    if (!this.isWord(word)) return false;
    this.next();
    return true;
  }

  protected acceptWords(first: string, second: string): boolean {
    if (!this.isWord(first) || !this.isWord(second, 1)) return false;
    this.at += 2;
    return true;
  }

  protected acceptOp(op: string): boolean {
    if (!this.isOp(op)) return false;
    this.next();
    return true;
  }

  protected expectOp(op: string): void {
    if (!this.acceptOp(op)) this.unexpected(`'${op}'`);
  }

  protected describe(t: Token): string {
    if (t.kind === 'eof') return 'the end of the query';
    if (t.kind === 'string') return `the string '${t.text.slice(0, 40)}' at position ${t.start}`;
    return `'${t.text.slice(0, 40)}' at position ${t.start}`;
  }

  /** Throws for the current token: an unsupported clause by name, else a syntax error. */
  protected unexpected(expected: string): never {
    const t = this.peek();
    const clause = t.kind === 'word' ? UNSUPPORTED_CLAUSES[t.upper] : undefined;
    if (clause) throw unsupported(clause);
    throw new QueryError('query', `Syntax error: expected ${expected}, found ${this.describe(t)}.`);
  }
}
