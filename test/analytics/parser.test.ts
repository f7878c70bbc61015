/**
 * The analytics SQL parser: the subset it reads, and a refusal naming the construct for
 * everything outside it (the route answers those as Unkey's 400 codes).
 */
import { describe, expect, test } from 'vitest';
import { QueryError, type QueryErrorKind } from '../../src/analytics/sql/errors.js';
import { MAX_QUERY_CHARS, parseQuery } from '../../src/analytics/sql/parser.js';
import { tokenize } from '../../src/analytics/sql/tokens.js';

function refusal(sql: string): QueryError {
  try {
    parseQuery(sql);
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error(`expected a refusal: ${sql}`);
}

describe('tokenizer', () => {
  test('words, quoted identifiers, strings with escapes, numbers, operators; comments skipped', () => {
    const tokens = tokenize("SELECT `my col`, \"x\" -- note\n FROM t /* c */ WHERE a <> 'it''s \\n' AND b >= 1.5e3");
    expect(tokens.map((t) => [t.kind, t.text])).toEqual([
      ['word', 'SELECT'], ['quoted', 'my col'], ['op', ','], ['quoted', 'x'], ['word', 'FROM'], ['word', 't'], ['word', 'WHERE'],
      ['word', 'a'], ['op', '<>'], ['string', "it's \n"], ['word', 'AND'], ['word', 'b'], ['op', '>='], ['number', '1.5e3'], ['eof', ''],
    ]);
  });

  test.each([
    ["SELECT 'open", 'Unterminated string literal'],
    ['SELECT /* open', 'Unterminated comment'],
    ['SELECT 12abc', 'Malformed number'],
    ['SELECT a FROM t WHERE x = {id:String}', 'A query parameter'],
    ['SELECT a FROM t WHERE x = ?', 'A query parameter'],
    ['SELECT a ^ b', "Unexpected character '^'"],
  ])('%s → %s', (sql, detail) => {
    expect(refusal(sql).detail).toContain(detail);
  });
});

describe('parser', () => {
  test('a full query: projections with aliases, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT', () => {
    const q = parseQuery(`
      SELECT toStartOfDay(time) AS day, outcome o, count(*) AS n
      FROM key_verifications_v1 AS v
      WHERE v.time >= now() - INTERVAL 7 DAY AND has(tags, 'a') AND outcome NOT IN ('X', 'Y') AND key_id BETWEEN 'a' AND 'z'
      GROUP BY day, o HAVING n > 1 ORDER BY day DESC, n LIMIT 10 OFFSET 5;`);
    expect(q.items.map((i) => [i.alias, i.text])).toEqual([['day', 'toStartOfDay(time)'], ['o', 'outcome'], ['n', 'count(*)']]);
    expect(q.table).toBe('key_verifications_v1');
    expect(q.tableAlias).toBe('v');
    expect(q.groupBy).toHaveLength(2);
    expect(q.orderBy.map((o) => o.descending)).toEqual([true, false]);
    expect([q.limit, q.offset]).toEqual([10, 5]);
    expect(q.items[2]!.expr).toEqual({ kind: 'call', name: 'count', args: [{ kind: 'star' }], distinct: false });
    expect(q.where?.kind).toBe('binary');
  });

  test('precedence: NOT binds tighter than AND, AND tighter than OR, * tighter than +', () => {
    const q = parseQuery('SELECT 1 + 2 * 3 AS x FROM t WHERE NOT a = 1 AND b = 2 OR c = 3');
    expect(q.items[0]!.expr).toMatchObject({ op: '+', right: { op: '*' } });
    expect(q.where).toMatchObject({ op: 'or', left: { op: 'and', left: { kind: 'not' } } });
  });

  test('CASE, arrays, intervals in both spellings, IS NULL, count(DISTINCT x), SELECT *', () => {
    const q = parseQuery("SELECT CASE WHEN a = 1 THEN 'x' ELSE 'y' END AS c, count(DISTINCT k) AS d FROM t WHERE hasAny(tags, ['a', 'b']) AND time > now() - INTERVAL '2 hours' AND x IS NOT NULL");
    expect(q.items[0]!.expr.kind).toBe('case');
    expect(q.items[1]!.expr).toMatchObject({ kind: 'call', distinct: true });
    expect(JSON.stringify(q.where)).toContain('"unit":"hour"');
    expect(parseQuery('SELECT * FROM t').star).toBe(true);
  });

  test.each<[string, string, QueryErrorKind, string]>([
    ['INSERT', "INSERT INTO key_verifications_v1 VALUES ('x')", 'query_type', 'Only SELECT queries are allowed; this is INSERT'],
    ['DROP', 'DROP TABLE key_verifications_v1', 'query_type', 'this is DROP'],
    ['something else', 'HELLO', 'query_type', 'must start with SELECT'],
    ['WITH', 'WITH x AS (SELECT 1) SELECT * FROM x', 'query', 'WITH (common table expressions) is not supported'],
    ['a subquery in FROM', 'SELECT * FROM (SELECT 1)', 'query', 'A subquery in FROM is not supported'],
    ['a subquery in WHERE', 'SELECT * FROM t WHERE key_id IN (SELECT key_id FROM t)', 'query', 'IN with a subquery'],
    ['a scalar subquery', 'SELECT (SELECT 1) FROM t', 'query', 'A subquery'],
    ['JOIN', 'SELECT * FROM t JOIN u ON t.a = u.a', 'query', 'JOIN is not supported'],
    ['LEFT JOIN after an alias', 'SELECT * FROM t AS a LEFT JOIN u ON 1', 'query', 'JOIN is not supported'],
    ['a comma join', 'SELECT * FROM t, u', 'query', 'Several tables in FROM'],
    ['ARRAY JOIN', 'SELECT * FROM t ARRAY JOIN tags', 'query', 'ARRAY JOIN is not supported'],
    ['UNION', 'SELECT a FROM t UNION ALL SELECT a FROM t', 'query', 'UNION is not supported'],
    ['SETTINGS', 'SELECT a FROM t SETTINGS max_threads = 1', 'query', 'SETTINGS is not supported'],
    ['FORMAT', 'SELECT a FROM t FORMAT JSON', 'query', 'FORMAT is not supported'],
    ['FINAL', 'SELECT a FROM t FINAL', 'query', 'FINAL is not supported'],
    ['window functions', 'SELECT count() OVER (PARTITION BY a) FROM t', 'query', 'Window functions (OVER) is not supported'],
    ['parametric aggregates', 'SELECT quantile(0.9)(latency) FROM t', 'query', 'Parametric aggregate functions'],
    ['array subscripts', 'SELECT tags[1] FROM t', 'query', 'Array subscripts'],
    ['lambdas', 'SELECT arrayFilter(x -> x = 1, tags) FROM t', 'query', 'Lambda functions'],
    ['CAST', 'SELECT CAST(a AS String) FROM t', 'query', 'CAST is not supported'],
    [':: casts', 'SELECT a::String FROM t', 'query', 'Casts with ::'],
    ['LIMIT BY', 'SELECT a FROM t LIMIT 1 BY a', 'query', 'LIMIT … BY is not supported'],
    ['WITH ROLLUP', 'SELECT a FROM t GROUP BY a WITH ROLLUP', 'query', 'WITH ROLLUP is not supported'],
    ['WITH FILL', 'SELECT a FROM t ORDER BY a WITH FILL', 'query', 'WITH FILL is not supported'],
    ['NULLS FIRST', 'SELECT a FROM t ORDER BY a NULLS FIRST', 'query', 'NULLS FIRST/LAST'],
    ['a LIMIT expression', 'SELECT a FROM t LIMIT 1 + 1', 'query', 'Syntax error'],
    ['a negative LIMIT', 'SELECT a FROM t LIMIT -1', 'query', 'LIMIT takes a whole number'],
    ['two statements', 'SELECT a FROM t; SELECT b FROM t', 'query', 'Only one statement is allowed'],
    ['SELECT without FROM', 'SELECT 1', 'query', 'SELECT without FROM is not supported'],
    ['a qualified table', 'SELECT * FROM default.key_verifications_raw_v2', 'table', "Table 'default.key_verifications_raw_v2' is not allowed"],
    ['system tables', 'SELECT * FROM system.tables', 'table', "Table 'system.tables' is not allowed"],
    ['table functions', "SELECT * FROM url('http://x', CSV)", 'function', "Table function 'url' is not allowed"],
    ['a syntax error', 'SELECT a FROM t WHERE', 'query', 'Syntax error: expected a value, a column or a function, found the end of the query'],
    ['an unclosed parenthesis', 'SELECT count( FROM t', 'query', 'Syntax error'],
  ])('%s is refused as %s', (_name, sql, kind, detail) => {
    const err = refusal(sql);
    expect(err.kind).toBe(kind);
    expect(err.detail).toContain(detail);
  });

  test(`structural limits: ${MAX_QUERY_CHARS} characters, 64 columns, 2000 nodes`, () => {
    expect(refusal(`SELECT a FROM t WHERE ${'a = 1 AND '.repeat(2_000)}1`).detail).toMatch(/characters long|too complex/);
    expect(refusal(`SELECT ${Array.from({ length: 65 }, (_, i) => `c${i}`).join(', ')} FROM t`).detail).toContain('at most 64');
    expect(refusal(`SELECT a FROM t WHERE ${Array.from({ length: 700 }, () => 'a=1').join(' OR ')}`).detail).toContain('too complex');
    // Parentheses make no nodes; nesting is bounded on its own (the parser recurses).
    for (const deep of [`${'('.repeat(5_000)}1${')'.repeat(5_000)}`, `${'NOT '.repeat(3_000)}1`, `${'- '.repeat(7_000)}1`]) {
      expect(refusal(`SELECT a FROM t WHERE ${deep}`).detail).toContain('levels deep');
    }
    expect(parseQuery(`SELECT a FROM t WHERE ${'('.repeat(30)}1${')'.repeat(30)}`).where).toEqual({ kind: 'literal', value: 1 });
  });
});
