import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { isSatisfied, parsePermissionQuery } from '../../src/keys/permission-query.js';

const SYNTAX = 'err:user:bad_request:permissions_query_syntax_error';

const allows = (query: string, granted: readonly string[]): boolean => isSatisfied(parsePermissionQuery(query), new Set(granted));

function syntaxError(query: string): ApiError {
  let caught: unknown;
  try {
    parsePermissionQuery(query);
  } catch (err) {
    caught = err;
  }
  expect(caught, `query ${JSON.stringify(query)} should be rejected`).toBeInstanceOf(ApiError);
  const err = caught as ApiError;
  expect(err.code).toBe(SYNTAX);
  return err;
}

describe('permission query: parsing and evaluation', () => {
  it('a single permission must be held exactly', () => {
    expect(parsePermissionQuery('documents.read')).toEqual({ kind: 'permission', slug: 'documents.read' });
    expect(allows('documents.read', ['documents.read'])).toBe(true);
    expect(allows('documents.read', ['documents.write', 'documents.read.all'])).toBe(false);
    expect(allows('documents.read', [])).toBe(false);
  });

  it('AND binds tighter than OR: a OR b AND c = a OR (b AND c)', () => {
    expect(parsePermissionQuery('a OR b AND c')).toEqual({
      kind: 'or',
      children: [{ kind: 'permission', slug: 'a' }, { kind: 'and', children: [{ kind: 'permission', slug: 'b' }, { kind: 'permission', slug: 'c' }] }],
    });
    // (a OR b) AND c would need c here.
    expect(allows('a OR b AND c', ['a'])).toBe(true);
    expect(allows('a OR b AND c', ['b'])).toBe(false);
    expect(allows('a OR b AND c', ['b', 'c'])).toBe(true);
    // and the other way round: a AND b OR c = (a AND b) OR c
    expect(allows('a AND b OR c', ['c'])).toBe(true);
    expect(allows('a AND b OR c', ['a'])).toBe(false);
  });

  it('parentheses override precedence and nest', () => {
    expect(allows('(a OR b) AND c', ['a'])).toBe(false);
    expect(allows('(a OR b) AND c', ['b', 'c'])).toBe(true);
    expect(allows('((a))', ['a'])).toBe(true);
    expect(allows('(a AND (b OR (c AND d))) OR e', ['a', 'c', 'd'])).toBe(true);
    expect(allows('(a AND (b OR (c AND d))) OR e', ['a', 'c'])).toBe(false);
    expect(allows('(a AND (b OR (c AND d))) OR e', ['e'])).toBe(true);
  });

  it('chains of the same operator need all (AND) or any (OR)', () => {
    expect(allows('a AND b AND c', ['a', 'b'])).toBe(false);
    expect(allows('a AND b AND c', ['a', 'b', 'c'])).toBe(true);
    expect(allows('a OR b OR c', ['c'])).toBe(true);
    expect(allows('a OR b OR c', ['d'])).toBe(false);
  });

  it('operators are case-insensitive', () => {
    for (const q of ['a and b', 'a And b', 'a aNd b']) {
      expect(allows(q, ['a', 'b'])).toBe(true);
      expect(allows(q, ['a'])).toBe(false);
    }
    for (const q of ['a or b', 'a Or b', 'a oR b']) expect(allows(q, ['b'])).toBe(true);
  });

  it('operators are whole words: ANDROID.read, ORDERS, oracle and band are permissions', () => {
    expect(parsePermissionQuery('ANDROID.read')).toEqual({ kind: 'permission', slug: 'ANDROID.read' });
    expect(allows('ANDROID.read OR ORDERS', ['ORDERS'])).toBe(true);
    expect(allows('oracle AND band', ['oracle', 'band'])).toBe(true);
    expect(allows('oracle AND band', ['oracle'])).toBe(false);
  });

  it('`*` is a literal character, not a wildcard', () => {
    expect(allows('documents.*', ['documents.*'])).toBe(true);
    expect(allows('documents.*', ['documents.read'])).toBe(false);
    expect(allows('documents.read', ['documents.*'])).toBe(false);
  });

  it('permissions may use letters, digits and . _ - : * /', () => {
    const slug = 'Api_1.key-2:read/*';
    expect(parsePermissionQuery(slug)).toEqual({ kind: 'permission', slug });
    expect(allows(slug, [slug])).toBe(true);
  });

  it('any whitespace separates tokens; none is needed around parentheses', () => {
    expect(allows('  a\tAND\r\n(b\nOR c)  ', ['a', 'c'])).toBe(true);
    expect(allows('(a)AND(b)', ['a', 'b'])).toBe(true);
    expect(allows('(a)AND(b)', ['a'])).toBe(false);
  });
});

describe('permission query: syntax errors are 400 permissions_query_syntax_error', () => {
  const cases: Array<[string, string]> = [
    ['empty', ''],
    ['whitespace only', ' \t\r\n '],
    ['leading AND', 'AND a'],
    ['leading OR', 'or a'],
    ['dangling AND', 'a AND'],
    ['dangling OR', 'a OR '],
    ['two operators', 'a AND OR b'],
    ['operator right after (', '(AND a)'],
    ['operator right before )', '(a OR) AND b'],
    ['empty parentheses', '()'],
    ['empty parentheses inside', 'a AND ( )'],
    ['missing )', '(a AND b'],
    ['missing ) nested', '((a OR b) AND c'],
    ['stray )', 'a)'],
    ['trailing permission', 'a b'],
    ['trailing group', 'a (b)'],
    ['invalid character !', 'a AND !b'],
    ['invalid character $', 'price$'],
    ['invalid character ,', 'a,b'],
    ['invalid character &&', 'a && b'],
  ];
  for (const [label, query] of cases) {
    it(`${label}: ${JSON.stringify(query)}`, () => {
      const err = syntaxError(query);
      expect(err.detail.length).toBeGreaterThan(0);
    });
  }

  it('the detail names the problem', () => {
    expect(syntaxError('').detail).toMatch(/empty/i);
    expect(syntaxError('AND a').detail).toMatch(/'AND' at position 0/);
    expect(syntaxError('a AND').detail).toMatch(/end of query/i);
    expect(syntaxError('a AND ()').detail).toMatch(/Empty parentheses found at position 6/);
    expect(syntaxError('(a').detail).toMatch(/Missing closing parenthesis/);
    expect(syntaxError('a !').detail).toMatch(/Invalid character '!' found in query at position 2/);
  });
});
