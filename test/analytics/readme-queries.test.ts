/**
 * The analytics queries of docs/analytics.md (where the README sends readers), run as written (read
 * from between its analytics-queries markers) over HTTP against a real keygate holding 10,000 seeded verifications, in the embedded
 * mode (LMDB) and the distributed mode (the run's Redis Cluster). Every answer must equal, row
 * for row, what this file computes from the seeded records on its own.
 *
 * The records go through the server's own recorder (so the rollups are made as in production),
 * with times spread over the last 45 days; none lies near a window edge of the queries (7 and 30
 * days), so the expected rows do not depend on the exact instant the server takes as now().
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Config } from '../../src/config.js';
import type { VerificationRecord } from '../../src/storage/records.js';
import { expectError } from '../support/auth-cases.js';
import { startHarness, type Harness } from '../support/harness.js';
import { PROJECT_DIR } from '../support/process.js';
import { prng } from '../support/prng.js';

const DAY = 86_400_000;
const SEEDED = 10_000;
const OUTCOMES = [['VALID', 0.7], ['RATE_LIMITED', 0.15], ['USAGE_EXCEEDED', 0.08], ['DISABLED', 0.04], ['EXPIRED', 0.03]] as const;
const TAGS = ['path=/v1/weather', 'path=/v1/forecast', 'region=eu'];

function docQueries(): string[] {
  const page = readFileSync(join(PROJECT_DIR, 'docs', 'analytics.md'), 'utf8');
  const block = /<!-- analytics-queries:start -->([\s\S]*?)<!-- analytics-queries:end -->/.exec(page);
  if (!block) throw new Error('docs/analytics.md has no analytics-queries block');
  return [...block[1]!.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

interface Key { keyId: string; apiId: string; identityId?: string; externalId?: string }

/** Creates the APIs, keys and identities the records name; returns the keys. */
async function seedKeys(h: Harness): Promise<Key[]> {
  const apis = [await h.createApi('weather'), await h.createApi('billing')];
  const owners = ['acme', 'globex', 'initech', undefined];
  const keys: Key[] = [];
  for (let i = 0; i < 12; i++) {
    const apiId = apis[i < 8 ? 0 : 1]!;
    const externalId = owners[i % owners.length];
    const { keyId } = await h.createKey({ apiId, ...(externalId ? { externalId } : {}) });
    const record = (await h.keygate.services.storage.keys.get(keyId))!;
    keys.push({ keyId, apiId, ...(externalId ? { externalId, identityId: record.identityId! } : {}) });
  }
  return keys;
}

/** 10,000 verifications: 85 % in the last 5 days, 10 % 8 to 28 days ago, 5 % 32 to 45 days ago. */
function seedRecords(keys: readonly Key[], now: number): VerificationRecord[] {
  const random = prng(20_260_801);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const between = (fromDays: number, toDays: number): number => Math.floor(now - (fromDays + random() * (toDays - fromDays)) * DAY);
  return Array.from({ length: SEEDED }, (_, i) => {
    const key = pick(keys);
    const r = random();
    const time = r < 0.85 ? between(1 / 1_440, 5) : r < 0.95 ? between(8, 28) : between(32, 45);
    let roll = random();
    const outcome = OUTCOMES.find(([, p]) => (roll -= p) < 0)?.[0] ?? 'VALID';
    const tags = TAGS.filter(() => random() < 0.4);
    return {
      time, requestId: `req_seed${i}`, apiId: key.apiId, keyId: key.keyId, outcome,
      spentCredits: outcome === 'VALID' ? 1 + Math.floor(random() * 3) : 0,
      latency: Math.round(random() * 5_000) / 1_000,
      ...(key.identityId ? { identityId: key.identityId, externalId: key.externalId! } : {}),
      ...(tags.length > 0 ? { tags } : {}),
    };
  });
}

/**
 * ORDER BY compares strings by code unit, as ClickHouse compares bytes, not by locale: ids differ
 * in case ('api_5T…' sorts before 'api_5p…').
 */
const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Counts rows by a key, keeping insertion order irrelevant: sorted by `compare` at the end. */
function tally<T extends object>(records: readonly VerificationRecord[], keyOf: (r: VerificationRecord) => T, add: (row: T, r: VerificationRecord) => void): T[] {
  const rows = new Map<string, T>();
  for (const r of records) {
    const key = keyOf(r);
    const id = JSON.stringify(key);
    if (!rows.has(id)) rows.set(id, key);
    add(rows.get(id)!, r);
  }
  return [...rows.values()];
}

const daysAgo = (now: number, r: VerificationRecord): number => (now - r.time) / DAY;

function describeReadmeQueries(mode: string, overrides: () => Partial<Config>): void {
  describe(`the analytics queries of docs/analytics.md (${mode})`, () => {
    let h: Harness & { stop(): Promise<void> };
    let keys: Key[];
    let records: VerificationRecord[];
    let now: number;
    const queries = docQueries();

    beforeAll(async () => {
      h = await startHarness(overrides());
      keys = await seedKeys(h);
      now = Date.now();
      records = seedRecords(keys, now);
      const { recorder } = h.keygate.services;
      for (const r of records) recorder.record(r);
      await recorder.flush();
    }, 120_000);
    afterAll(async () => { await h?.stop(); });

    const query = async (sql: string, rootKey?: string): Promise<unknown[]> => {
      const res = await h.call('analytics.getVerifications', { query: sql }, rootKey ? { rootKey } : {});
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const within30 = () => records.filter((r) => daysAgo(now, r) < 30);
    const within7 = () => records.filter((r) => daysAgo(now, r) < 7);

    test('docs/analytics.md shows four queries, and the seeded mix spans every outcome, both APIs and the windows', () => {
      expect(queries).toHaveLength(4);
      expect(records).toHaveLength(SEEDED);
      expect(new Set(records.map((r) => r.outcome)).size).toBe(OUTCOMES.length);
      expect(within7().length).toBeGreaterThan(8_000);
      expect(within30().length - within7().length).toBeGreaterThan(500);
      expect(records.length - within30().length).toBeGreaterThan(200);
    });

    test('verifications per day by outcome, last 30 days', async () => {
      const expected = tally(within30(), (r) => ({ day: Math.floor(r.time / DAY) * DAY, outcome: r.outcome, verifications: 0 }), (row) => { row.verifications++; })
        .sort((a, b) => a.day - b.day || byCodeUnit(a.outcome, b.outcome));
      expect(expected.length).toBeGreaterThan(40);
      expect(await query(queries[0]!)).toEqual(expected);
      // The raw records say the same, day by day.
      expect(await query(`SELECT toStartOfDay(time) AS day, outcome, count(*) AS verifications FROM key_verifications_v1
        WHERE time >= toStartOfDay(now() - INTERVAL 29 DAY) GROUP BY day, outcome ORDER BY day, outcome`)).toEqual(expected);
    });

    test('the ten most used keys of the last 7 days', async () => {
      const expected = tally(within7(), (r) => ({ key_id: r.keyId, verifications: 0 }), (row) => { row.verifications++; })
        .sort((a, b) => b.verifications - a.verifications || byCodeUnit(a.key_id, b.key_id)).slice(0, 10);
      expect(await query(queries[1]!)).toEqual(expected);
    });

    test("one identity's usage, last 30 days", async () => {
      const expected = tally(within30().filter((r) => r.externalId === 'acme'), (r) => ({ outcome: r.outcome, verifications: 0, credits: 0 }),
        (row, r) => { row.verifications++; row.credits += r.spentCredits; }).sort((a, b) => byCodeUnit(a.outcome, b.outcome));
      expect(expected.reduce((n, row) => n + row.verifications, 0)).toBeGreaterThan(1_000);
      expect(await query(queries[2]!)).toEqual(expected);
    });

    test('calls of one endpoint (tag) per API, last 7 days', async () => {
      const expected = tally(within7().filter((r) => r.tags?.includes('path=/v1/weather')), (r) => ({ api_id: r.apiId, valid: 0, total: 0 }),
        (row, r) => { row.total++; if (r.outcome === 'VALID') row.valid++; }).sort((a, b) => byCodeUnit(a.api_id, b.api_id));
      expect(expected).toHaveLength(2);
      expect(await query(queries[3]!)).toEqual(expected);
    });

    test('a root key with api.<apiId>.read_analytics gets the same queries over its API only', async () => {
      const billing = keys[8]!.apiId;
      const rootKey = await h.rootKey([`api.${billing}.read_analytics`]);
      const mine = within30().filter((r) => r.apiId === billing);
      const expected = tally(mine, (r) => ({ day: Math.floor(r.time / DAY) * DAY, outcome: r.outcome, verifications: 0 }), (row) => { row.verifications++; })
        .sort((a, b) => a.day - b.day || byCodeUnit(a.outcome, b.outcome));
      expect(await query(queries[0]!, rootKey)).toEqual(expected);
      expect(await query('SELECT uniq(api_id) AS apis, count(*) AS n FROM key_verifications_v1', rootKey)).toEqual([{ apis: 1, n: mine.length }]);
    });

    test('an unsupported query is a 400 naming why', async () => {
      const join = await h.call('analytics.getVerifications', { query: 'SELECT count(*) FROM key_verifications_v1 v JOIN key_verifications_per_day_v1 d ON v.key_id = d.key_id' });
      expectError(join, 400, 'user/bad_request/invalid_analytics_query');
      expect(join.body.error.detail).toBe("JOIN is not supported by keygate's analytics SQL.");
      const old = await h.call('analytics.getVerifications', { query: 'SELECT count(*) FROM key_verifications_v1 WHERE time >= now() - INTERVAL 40 DAY' });
      expectError(old, 400, 'user/bad_request/query_range_exceeds_retention');
      expect(old.body.error.detail).toContain('older than 30 days');
    });
  });
}

describeReadmeQueries('LMDB', () => ({}));
describeReadmeQueries('Redis Cluster', () => ({
  redis: {
    clusterNodes: inject('redisClusterNodes').split(',').map((node) => ({ host: node.split(':')[0]!, port: Number(node.split(':')[1]) })),
    commandTimeoutMs: 2_000,
    keyPrefix: `kg-readme-${randomBytes(4).toString('hex')}:`,
  },
}));
