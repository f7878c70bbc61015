/**
 * The analytics query engine (parser → planner → executor) over a real LMDB store, with a fixed
 * clock: what the SQL subset means, row by row. The route tests (test/routes/analytics/) check
 * the HTTP side; readme-queries.test.ts the queries of docs/analytics.md on 10,000 verifications.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAnalyticsQuery, type QueryScope } from '../../src/analytics/query.js';
import { QueryError } from '../../src/analytics/sql/errors.js';
import { execute } from '../../src/analytics/execute.js';
import { planQuery } from '../../src/analytics/plan.js';
import { parseQuery } from '../../src/analytics/sql/parser.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { WORKSPACE_ID, type VerificationRecord } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';

const DAY = 86_400_000;
/** The clock of every query here: 2025-03-15 12:00:00 UTC. */
const NOW = Date.UTC(2025, 2, 15, 12);
const ALL: QueryScope = { workspaceId: WORKSPACE_ID, apiIds: null };
const SETTINGS = { analyticsRetentionDays: 30, analyticsMaxResultRows: 1_000, analyticsMaxRowsRead: 100_000, analyticsQueryTimeoutMs: 10_000 };

let n = 0;
const rec = (time: number, o: Partial<VerificationRecord> = {}): VerificationRecord =>
  ({ time, requestId: `req_${++n}`, apiId: 'api_a', keyId: 'key_1', outcome: 'VALID', spentCredits: 0, ...o });

const RECORDS: VerificationRecord[] = [
  rec(NOW - 10 * 60_000, { tags: ['path=/v1/weather', 'region=eu'], latency: 2, spentCredits: 1, identityId: 'id_1', externalId: 'acme' }),
  rec(NOW - 9 * 60_000, { tags: ['path=/v1/weather'], latency: 4, spentCredits: 1, identityId: 'id_1', externalId: 'acme' }),
  rec(NOW - 8 * 60_000, { outcome: 'RATE_LIMITED', latency: 1, identityId: 'id_1', externalId: 'acme' }),
  rec(NOW - 2 * DAY, { keyId: 'key_2', tags: ['path=/v1/forecast'], latency: 3 }),
  rec(NOW - 2 * DAY + 1, { keyId: 'key_2', outcome: 'USAGE_EXCEEDED' }),
  rec(NOW - 3 * DAY, { apiId: 'api_b', keyId: 'key_9', latency: 10 }),
  rec(NOW - 40 * DAY, { keyId: 'key_old' }), // beyond the 30-day look-back
];

describe('analytics queries', () => {
  let dir: string;
  let storage: Storage;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-analytics-'));
    storage = openLmdbStorage(dir);
    await storage.apis.insert({ id: 'api_a', workspaceId: WORKSPACE_ID, name: 'a', keyspaceId: 'ks_a', createdAt: 0 });
    await storage.apis.insert({ id: 'api_b', workspaceId: WORKSPACE_ID, name: 'b', keyspaceId: 'ks_b', createdAt: 0 });
    await storage.verifications.append(RECORDS);
  });
  afterAll(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (sql: string, scope: QueryScope = ALL, settings: Partial<typeof SETTINGS> = {}) =>
    runAnalyticsQuery(sql, scope, { storage, config: { ...SETTINGS, ...settings }, now: () => NOW });
  const refused = async (sql: string, settings: Partial<typeof SETTINGS> = {}): Promise<QueryError> => {
    try {
      await run(sql, ALL, settings);
    } catch (err) {
      if (err instanceof QueryError) return err;
      throw err;
    }
    throw new Error(`expected the query to be refused: ${sql}`);
  };

  test('count(*) over the raw table within the look-back; the record 40 days old is never read', async () => {
    expect(await run('SELECT count(*) AS total FROM key_verifications_v1')).toEqual([{ total: 6 }]);
    expect(await run('SELECT COUNT(*) as total FROM key_verifications_v1 WHERE time >= now() - INTERVAL 7 DAY')).toEqual([{ total: 6 }]);
    expect(await run("SELECT count() AS c FROM key_verifications_v1 WHERE key_id = 'key_old'")).toEqual([{ c: 0 }]);
  });

  test('time filters: INTERVAL arithmetic, toStartOfDay, fromUnixTimestamp64Milli, date strings, BETWEEN', async () => {
    const count = async (where: string) => (await run(`SELECT count(*) AS c FROM key_verifications_v1 WHERE ${where}`))[0]!.c;
    expect(await count('time >= now() - INTERVAL 1 HOUR')).toBe(3);
    expect(await count("time >= now() - INTERVAL '1 hour'")).toBe(3);
    expect(await count('time >= now() - toIntervalDay(2) - INTERVAL 1 MINUTE')).toBe(5);
    expect(await count('time >= toStartOfDay(now())')).toBe(3);
    expect(await count('time < toStartOfDay(now())')).toBe(3);
    expect(await count(`fromUnixTimestamp64Milli(time) >= toStartOfDay(now() - INTERVAL 2 DAY)`)).toBe(5);
    expect(await count(`time >= '2025-03-13' AND time < '2025-03-14'`)).toBe(2);
    expect(await count(`time BETWEEN ${NOW - 2 * DAY} AND ${NOW - 2 * DAY}`)).toBe(1);
    expect(await count(`toDate(time) = '2025-03-12'`)).toBe(1);
    expect(await count(`time >= now() - INTERVAL 1 MONTH`)).toBe(6);
  });

  test('outcome, ids and tags: =, IN, has, hasAny, hasAll, LIKE', async () => {
    const count = async (where: string) => (await run(`SELECT count(*) AS c FROM key_verifications_v1 WHERE ${where}`))[0]!.c;
    expect(await count("outcome = 'VALID'")).toBe(4);
    expect(await count("outcome IN ('RATE_LIMITED', 'USAGE_EXCEEDED')")).toBe(2);
    expect(await count("outcome NOT IN ('VALID')")).toBe(2);
    expect(await count("external_id = 'acme' AND outcome != 'VALID'")).toBe(1);
    expect(await count("key_space_id = 'ks_b'")).toBe(1);
    expect(await count("has(tags, 'path=/v1/weather')")).toBe(2);
    expect(await count("hasAny(tags, ['path=/v1/forecast', 'region=eu'])")).toBe(2);
    expect(await count("hasAll(tags, ['path=/v1/weather', 'region=eu'])")).toBe(1);
    expect(await count("NOT has(tags, 'path=/v1/weather') AND length(tags) > 0")).toBe(1);
    expect(await count("key_id LIKE 'key_%'")).toBe(6);
    expect(await count("key_id ILIKE 'KEY_9%' OR key_id NOT LIKE '%1'")).toBe(3);
    expect(await count("has(tags, 'path=/v1/weather') AND key_id LIKE '%e%_%1'")).toBe(2);
    // A pattern that would make a backtracking regex explode costs text × pattern here.
    const started = Date.now();
    expect(await count(`key_id LIKE '${'%k'.repeat(2_000)}%x'`)).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await count("identity_id = '' OR external_id = 'nobody'")).toBe(3);
  });

  test('GROUP BY with aliases, ORDER BY, LIMIT, HAVING, aggregates', async () => {
    expect(await run(`
      SELECT outcome, count(*) AS n, sum(spent_credits) AS credits, avg(latency) AS avg_latency, min(time) AS first, max(latency) AS slowest
      FROM key_verifications_v1 GROUP BY outcome ORDER BY n DESC, outcome`)).toEqual([
      { outcome: 'VALID', n: 4, credits: 2, avg_latency: (2 + 4 + 3 + 10) / 4, first: NOW - 3 * DAY, slowest: 10 },
      { outcome: 'RATE_LIMITED', n: 1, credits: 0, avg_latency: 1, first: NOW - 8 * 60_000, slowest: 1 },
      { outcome: 'USAGE_EXCEEDED', n: 1, credits: 0, avg_latency: 0, first: NOW - 2 * DAY + 1, slowest: 0 },
    ]);
    expect(await run('SELECT toStartOfDay(time) AS day, count(*) AS n FROM key_verifications_v1 GROUP BY day ORDER BY day DESC LIMIT 2')).toEqual([
      { day: Date.UTC(2025, 2, 15), n: 3 },
      { day: Date.UTC(2025, 2, 13), n: 2 },
    ]);
    expect(await run('SELECT key_id, count(*) AS n FROM key_verifications_v1 GROUP BY 1 HAVING n > 1 ORDER BY 2 DESC, 1')).toEqual([
      { key_id: 'key_1', n: 3 }, { key_id: 'key_2', n: 2 },
    ]);
    expect(await run("SELECT countIf(outcome = 'VALID') AS ok, uniq(key_id) AS keys, count(DISTINCT api_id) AS apis, sumIf(spent_credits, external_id = 'acme') AS acme FROM key_verifications_v1"))
      .toEqual([{ ok: 4, keys: 3, apis: 2, acme: 2 }]);
    expect(await run("SELECT sum(CASE WHEN outcome = 'VALID' THEN 1 ELSE 0 END) AS ok, if(count(*) > 5, 'many', 'few') AS size FROM key_verifications_v1"))
      .toEqual([{ ok: 4, size: 'many' }]);
  });

  test('an aggregate over no rows answers one row: count 0, sum 0, avg and min NULL', async () => {
    expect(await run("SELECT count(*) AS n, sum(spent_credits) AS s, avg(latency) AS a, min(time) AS m FROM key_verifications_v1 WHERE outcome = 'NONE'"))
      .toEqual([{ n: 0, s: 0, a: null, m: null }]);
    expect(await run("SELECT outcome, count(*) AS n FROM key_verifications_v1 WHERE outcome = 'NONE' GROUP BY outcome")).toEqual([]);
  });

  test('rows without aggregates: SELECT *, columns, DISTINCT, ORDER BY, LIMIT and OFFSET', async () => {
    const [first] = await run('SELECT * FROM key_verifications_v1 ORDER BY time DESC LIMIT 1');
    expect(first).toEqual({
      request_id: RECORDS[2]!.requestId, time: NOW - 8 * 60_000, workspace_id: WORKSPACE_ID, key_space_id: 'ks_a', api_id: 'api_a',
      identity_id: 'id_1', external_id: 'acme', key_id: 'key_1', outcome: 'RATE_LIMITED', tags: [], region: '', source: 'api',
      app_id: '', spent_credits: 0, latency: 1,
    });
    expect(await run('SELECT DISTINCT key_id FROM key_verifications_v1 ORDER BY key_id')).toEqual([{ key_id: 'key_1' }, { key_id: 'key_2' }, { key_id: 'key_9' }]);
    expect(await run('SELECT key_id, time FROM key_verifications_v1 ORDER BY time LIMIT 2 OFFSET 1')).toEqual([
      { key_id: 'key_2', time: NOW - 2 * DAY }, { key_id: 'key_2', time: NOW - 2 * DAY + 1 },
    ]);
    expect(await run('SELECT key_id FROM key_verifications_v1 LIMIT 1, 1')).toEqual([{ key_id: 'key_2' }]);
    expect(await run('SELECT latency / 0 AS inf, time - INTERVAL 1 DAY AS before FROM key_verifications_v1 ORDER BY time LIMIT 1'))
      .toEqual([{ inf: null, before: NOW - 4 * DAY }]);
  });

  test('rollup tables: sum(count), spent credits and avgMerge(latency_avg) per bucket', async () => {
    expect(await run(`SELECT time AS day, outcome, SUM(count) AS verifications FROM key_verifications_per_day_v1
      WHERE time >= now() - INTERVAL 7 DAY GROUP BY day, outcome ORDER BY day, outcome`)).toEqual([
      { day: Date.UTC(2025, 2, 12), outcome: 'VALID', verifications: 1 },
      { day: Date.UTC(2025, 2, 13), outcome: 'USAGE_EXCEEDED', verifications: 1 },
      { day: Date.UTC(2025, 2, 13), outcome: 'VALID', verifications: 1 },
      { day: Date.UTC(2025, 2, 15), outcome: 'RATE_LIMITED', verifications: 1 },
      { day: Date.UTC(2025, 2, 15), outcome: 'VALID', verifications: 2 },
    ]);
    expect(await run(`SELECT sum(count) AS n, sum(spent_credits) AS credits, avgMerge(latency_avg) AS latency FROM key_verifications_per_hour_v1
      WHERE external_id = 'acme'`)).toEqual([{ n: 3, credits: 2, latency: 7 / 3 }]);
    expect(await run('SELECT sum(count) AS n FROM key_verifications_per_minute_v1')).toEqual([{ n: 6 }]);
    // The month bucket holding the look-back's first instant is readable whole.
    expect(await run('SELECT time, sum(count) AS n FROM key_verifications_per_month_v1 GROUP BY time ORDER BY time')).toEqual([
      { time: Date.UTC(2025, 1, 1), n: 1 }, { time: Date.UTC(2025, 2, 1), n: 6 },
    ]);
  });

  test('the API scope is a filter: a key scoped to api_b sees only api_b rows, on every table', async () => {
    const scoped: QueryScope = { workspaceId: WORKSPACE_ID, apiIds: ['api_b'] };
    expect(await run('SELECT count(*) AS n FROM key_verifications_v1', scoped)).toEqual([{ n: 1 }]);
    expect(await run("SELECT count(*) AS n FROM key_verifications_v1 WHERE api_id = 'api_a' OR 1 = 1", scoped)).toEqual([{ n: 1 }]);
    expect(await run('SELECT sum(count) AS n FROM key_verifications_per_day_v1', scoped)).toEqual([{ n: 1 }]);
    expect(await run('SELECT count(*) AS n FROM key_verifications_v1', { workspaceId: WORKSPACE_ID, apiIds: ['api_none'] })).toEqual([{ n: 0 }]);
    expect(await run('SELECT count(*) AS n FROM key_verifications_v1', { workspaceId: 'ws_other', apiIds: null })).toEqual([{ n: 0 }]);
  });

  test('now() has whole seconds, as in ClickHouse: "now() - INTERVAL 30 DAY" is exactly the look-back at any millisecond', async () => {
    const at = (ms: number) => runAnalyticsQuery('SELECT count(*) AS n FROM key_verifications_v1 WHERE time >= now() - INTERVAL 30 DAY', ALL,
      { storage, config: SETTINGS, now: () => NOW + ms });
    expect(await at(999)).toEqual([{ n: 6 }]);
    expect(await run('SELECT now() AS a, now64() AS b FROM key_verifications_v1 LIMIT 1')).toEqual([{ a: NOW, b: NOW }]);
  });

  test('holding more groups than allowed is query_memory_limit_exceeded', async () => {
    const plan = planQuery(parseQuery('SELECT request_id, count(*) FROM key_verifications_v1 GROUP BY request_id'),
      { workspaceId: WORKSPACE_ID, apiIds: null, now: NOW, retentionMs: 30 * DAY, maxResultRows: 100 });
    const err = await execute(plan, { verifications: storage.verifications, apis: storage.apis, now: NOW, clock: Date.now },
      { maxRowsRead: 100, timeoutMs: 10_000, maxHeld: 3 }).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(QueryError);
    expect((err as QueryError).kind).toBe('memory_limit');
  });

  test('LIMIT is lowered to ANALYTICS_MAX_RESULT_ROWS', async () => {
    expect(await run('SELECT request_id FROM key_verifications_v1 LIMIT 100', ALL, { analyticsMaxResultRows: 2 })).toHaveLength(2);
  });

  test.each([
    ['an explicit bound older than the look-back', 'SELECT count(*) FROM key_verifications_v1 WHERE time >= now() - INTERVAL 31 DAY', 'retention', 'older than 30 days'],
    ['an absurd timestamp', 'SELECT count(*) FROM key_verifications_v1 WHERE time > -9999999999999999999', 'retention', 'older than 30 days'],
    ['a date older than the look-back, even under OR', "SELECT count(*) FROM key_verifications_v1 WHERE outcome = 'x' OR time > '2024-01-01'", 'retention', '2024-01-01'],
    ['more rows to read than allowed', 'SELECT count(*) FROM key_verifications_v1', 'rows_limit', 'ANALYTICS_MAX_ROWS_READ'],
  ] as const)('refused: %s', async (_name, sql, kind, detail) => {
    const err = await refused(sql, kind === 'rows_limit' ? { analyticsMaxRowsRead: 5 } : {});
    expect(err.kind).toBe(kind);
    expect(err.detail).toContain(detail);
  });

  test('the start of the bucket holding the look-back is still allowed on a rollup table', async () => {
    expect(await run('SELECT sum(count) AS n FROM key_verifications_per_day_v1 WHERE time >= toStartOfDay(now() - INTERVAL 30 DAY)')).toEqual([{ n: 6 }]);
    expect((await refused('SELECT sum(count) AS n FROM key_verifications_per_day_v1 WHERE time >= toStartOfDay(now() - INTERVAL 31 DAY)')).kind).toBe('retention');
  });

  test.each([
    ['a column neither grouped nor aggregated', 'SELECT key_id, count(*) FROM key_verifications_v1 GROUP BY outcome', "Column 'key_id' in SELECT must be in GROUP BY"],
    ['an aggregate in WHERE', 'SELECT outcome FROM key_verifications_v1 WHERE count(*) > 1', 'not allowed in WHERE'],
    ['an aggregate inside an aggregate', 'SELECT sum(count(*)) FROM key_verifications_v1', 'inside another aggregate'],
    ['an unknown column', 'SELECT nope FROM key_verifications_v1', "Unknown column 'nope'"],
    ['count on the raw table', 'SELECT sum(count) FROM key_verifications_v1', 'rollup tables'],
    ['latency percentiles', 'SELECT latency_p99 FROM key_verifications_per_day_v1', 'no latency percentiles'],
    ['latency_avg read bare', 'SELECT latency_avg FROM key_verifications_per_day_v1', 'avgMerge(latency_avg)'],
    ['a wrong number of arguments', "SELECT has(tags) FROM key_verifications_v1", 'has() takes 2 arguments'],
    ['a duplicate output name', 'SELECT key_id, key_id FROM key_verifications_v1', "named 'key_id'"],
    ['HAVING without grouping', 'SELECT key_id FROM key_verifications_v1 HAVING key_id = 1', 'HAVING needs GROUP BY'],
    ['a position out of range', 'SELECT key_id FROM key_verifications_v1 ORDER BY 2', 'ORDER BY 2'],
    ['comparing a string with a number', 'SELECT count(*) FROM key_verifications_v1 WHERE outcome > 3', 'Cannot compare'],
  ])('a query error names the problem: %s', async (_name, sql, detail) => {
    const err = await refused(sql);
    expect(err.kind).toBe('query');
    expect(err.detail).toContain(detail);
  });

  test('an unknown function is invalid_analytics_function, naming it', async () => {
    const err = await refused('SELECT quantile(latency) FROM key_verifications_v1');
    expect(err.kind).toBe('function');
    expect(err.detail).toContain("Function 'quantile' is not supported");
  });
});
