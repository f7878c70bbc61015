/**
 * The tokenizer of the analytics SQL subset (ClickHouse spelling): words, quoted identifiers
 * (`x` and "x"), string literals ('…' with '' and backslash escapes), numbers, operators and
 * punctuation. Comments (-- to the end of the line, /* … *\/) are skipped. Anything else is a
 * QueryError naming the character and its position.
 */
import { QueryError, unsupported } from './errors.js';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'op' | 'eof';

export interface Token {
  readonly kind: TokenKind;
  /** The word or identifier as written, the decoded string, the number's text, or the operator. */
  readonly text: string;
  /** Upper-cased text of a word (keywords are matched on this). */
  readonly upper: string;
  /** Offset in the query (for messages and for naming unaliased columns). */
  readonly start: number;
  readonly end: number;
}

const OPERATORS = ['<=', '>=', '!=', '<>', '==', '||', '->', '::', '(', ')', ',', '.', ';', '[', ']', '*', '+', '-', '/', '%', '=', '<', '>'];
const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '0': '\0', b: '\b', f: '\f' };

const isWordStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isWordPart = (c: string): boolean => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, text: string, start: number): void => {
    tokens.push({ kind, text, upper: kind === 'word' ? text.toUpperCase() : text, start, end: i });
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (sql.startsWith('--', i)) {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? sql.length : eol + 1;
      continue;
    }
    if (sql.startsWith('/*', i)) {
      const close = sql.indexOf('*/', i + 2);
      if (close === -1) throw new QueryError('query', `Unterminated comment starting at position ${i}.`);
      i = close + 2;
      continue;
    }
    const start = i;
    if (isWordStart(c)) {
      while (i < sql.length && isWordPart(sql[i]!)) i++;
      push('word', sql.slice(start, i), start);
    } else if (isDigit(c) || (c === '.' && isDigit(sql[i + 1] ?? ''))) {
      const match = /^(\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.(?:[eE][+-]?\d+)?)/.exec(sql.slice(i))!;
      i += match[0].length;
      if (i < sql.length && isWordPart(sql[i]!)) throw new QueryError('query', `Malformed number at position ${start}.`);
      push('number', match[0], start);
    } else if (c === "'") {
      push('string', readQuoted(sql, start, "'", 'string literal', () => i, (n) => { i = n; }), start);
    } else if (c === '`' || c === '"') {
      const name = readQuoted(sql, start, c, 'quoted identifier', () => i, (n) => { i = n; });
      if (name === '') throw new QueryError('query', `Empty quoted identifier at position ${start}.`);
      push('quoted', name, start);
    } else if (c === '{' || c === '?' || c === '$') {
      throw unsupported(`A query parameter ('${c}' at position ${start})`, 'write the value into the query');
    } else {
      const op = OPERATORS.find((o) => sql.startsWith(o, i));
      if (!op) throw new QueryError('query', `Unexpected character '${c}' at position ${start}.`);
      i += op.length;
      push('op', op, start);
    }
  }
  tokens.push({ kind: 'eof', text: '', upper: '', start: sql.length, end: sql.length });
  return tokens;
}

/** Reads a quoted run from `start` (at the opening quote): a doubled quote or a backslash escapes. */
function readQuoted(sql: string, start: number, quote: string, what: string, at: () => number, moveTo: (n: number) => void): string {
  let out = '';
  let i = at() + 1;
  for (;;) {
    if (i >= sql.length) throw new QueryError('query', `Unterminated ${what} starting at position ${start}.`);
    const c = sql[i]!;
    if (c === '\\' && i + 1 < sql.length) {
      const next = sql[i + 1]!;
      out += ESCAPES[next] ?? next;
      i += 2;
    } else if (c === quote && sql[i + 1] === quote) {
      out += quote;
      i += 2;
    } else if (c === quote) {
      moveTo(i + 1);
      return out;
    } else {
      out += c;
      i++;
    }
  }
}
