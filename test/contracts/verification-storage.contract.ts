/**
 * Behavioural contract of VerificationStore (src/storage/types.ts). `open(retained)` gives a fresh
 * storage that keeps at most `retained` verification records.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RollupGranularity, VerificationRecord, VerificationRollup } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';
import { rollupDeltas } from '../../src/storage/rollups.js';

let n = 0;
function record(time: number, overrides: Partial<VerificationRecord> = {}): VerificationRecord {
  return { time, requestId: `req_${++n}`, apiId: 'api_1', keyId: 'key_1', outcome: 'VALID', spentCredits: 0, ...overrides };
}

export function describeVerificationStorage(
  impl: string,
  open: (retained: number) => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void = (storage) => storage.close(),
): void {
  describe(`VerificationStore contract: ${impl}`, () => {
    let storage: Storage | undefined;
    afterEach(async () => {
      if (storage) await close(storage);
      storage = undefined;
    });

    it('records come back whole, in time order, within [fromMs, toMs), at most limit', async () => {
      storage = await open(1_000);
      const full = record(2_000, { identityId: 'id_1', externalId: 'acme', tags: ['path=/v1', 'region=eu'], spentCredits: 3, outcome: 'USAGE_EXCEEDED' });
      const bare = record(1_000);
      const sameMs = record(2_000, { keyId: 'key_2' });
      const late = record(5_000);
      await storage.verifications.append([full, late]);
      await storage.verifications.append([bare, sameMs]);
      expect(await storage.verifications.range({ limit: 10 })).toEqual([bare, full, sameMs, late]);
      expect(await storage.verifications.range({ fromMs: 2_000, toMs: 5_000, limit: 10 })).toEqual([full, sameMs]);
      expect(await storage.verifications.range({ fromMs: 1_500, limit: 1 })).toEqual([full]);
      expect(await storage.verifications.count()).toBe(4);
    });

    it('keeps at most the retained number: the oldest records go first', async () => {
      storage = await open(100);
      const records = Array.from({ length: 130 }, (_, i) => record(10_000 + i));
      await storage.verifications.append(records.slice(0, 70));
      await storage.verifications.append(records.slice(70));
      expect(await storage.verifications.count()).toBe(100);
      const kept = await storage.verifications.range({ limit: 1_000 });
      expect(kept).toEqual(records.slice(30));
    });

    it('batches appended out of time order (as several replicas do) are read back in time order, each millisecond in append order', async () => {
      storage = await open(100_000);
      let seed = 7;
      const random = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
      const batches = Array.from({ length: 12 }, (_, b) => Array.from({ length: 20 + random(60) }, () => record(1_000_000 + b * 300 + random(4_000))));
      for (const batch of batches) await storage.verifications.append(batch);
      // Within one millisecond: earlier batches first, and a batch's records in their order.
      const expected = batches.flatMap((batch, b) => batch.map((r, i) => ({ r, b, i })))
        .sort((x, y) => x.r.time - y.r.time || x.b - y.b || x.i - y.i).map((x) => x.r);
      expect(await storage.verifications.range({ limit: 100_000 })).toEqual(expected);
      for (const limit of [1, 7, 50]) {
        expect(await scanAll(storage, { limit, fromMs: 1_001_000, toMs: 1_003_000 })).toEqual(expected.filter((r) => r.time >= 1_001_000 && r.time < 1_003_000));
      }
      expect(await storage.verifications.count()).toBe(expected.length);
    });

    it('a batch spanning hours is found from any point inside it', async () => {
      storage = await open(1_000);
      const start = Date.UTC(2025, 6, 1);
      const records = Array.from({ length: 200 }, (_, i) => record(start + i * 97_000));
      await storage.verifications.append(records);
      const from = start + 5_000_000;
      expect(await storage.verifications.range({ fromMs: from, limit: 3 })).toEqual(records.filter((r) => r.time >= from).slice(0, 3));
      expect(await scanAll(storage, { limit: 9, fromMs: from, toMs: from + 2_000_000 })).toEqual(records.filter((r) => r.time >= from && r.time < from + 2_000_000));
    });

    it('over many batches exactly the retained number is kept, the oldest dropped first', async () => {
      storage = await open(100);
      const records = Array.from({ length: 7 * 37 }, (_, i) => record(20_000 + i));
      for (let b = 0; b < 7; b++) {
        await storage.verifications.append(records.slice(b * 37, (b + 1) * 37));
        expect(await storage.verifications.count()).toBe(Math.min(100, (b + 1) * 37));
      }
      expect(await storage.verifications.range({ limit: 1_000 })).toEqual(records.slice(-100));
      expect(await scanAll(storage, { limit: 6 })).toEqual(records.slice(-100));
    });

    it('an empty append changes nothing', async () => {
      storage = await open(100);
      await storage.verifications.append([]);
      expect(await storage.verifications.count()).toBe(0);
      expect(await allRollups(storage, 'minute')).toEqual([]);
    });

    it('latency comes back as stored; records without one have none', async () => {
      storage = await open(100);
      const timed = record(1_000, { latency: 0.375 });
      const untimed = record(2_000);
      await storage.verifications.append([timed, untimed]);
      expect(await storage.verifications.range({ limit: 10 })).toEqual([timed, untimed]);
    });

    it('scan pages through every record exactly once, a millisecond of many records included', async () => {
      storage = await open(1_000);
      const records = [
        ...Array.from({ length: 7 }, (_, i) => record(100 + i)),
        ...Array.from({ length: 23 }, () => record(500)),
        ...Array.from({ length: 9 }, (_, i) => record(900 + i)),
      ];
      await storage.verifications.append(records);
      for (const limit of [1, 4, 10, 100]) {
        expect(await scanAll(storage, { limit })).toEqual(records);
        expect(await scanAll(storage, { limit, fromMs: 104, toMs: 902 })).toEqual(records.filter((r) => r.time >= 104 && r.time < 902));
      }
    });

    it('append adds every record to its minute, hour, day and month rollup row, across batches', async () => {
      storage = await open(1_000);
      const day = Date.UTC(2025, 0, 31); // the last day of a month
      const minute = 60_000;
      const a = { apiId: 'api_1', keyId: 'key_1', outcome: 'VALID' };
      await storage.verifications.append([
        record(day + 5_000, { ...a, spentCredits: 2, latency: 1.5 }),
        record(day + 50_000, { ...a, spentCredits: 1, latency: 2.25 }),
        record(day + minute + 1, { ...a }),
        record(day + 5_000, { ...a, tags: ['b', 'a'] }),
        record(day + 5_000, { ...a, tags: ['a', 'b'], identityId: 'id_1', externalId: 'acme' }),
      ]);
      await storage.verifications.append([
        record(day + 7_000, { ...a, latency: 0.25 }),
        record(day + 86_400_000 + 3, { ...a, outcome: 'RATE_LIMITED' }), // next day, next month
      ]);
      const minutes = await allRollups(storage, 'minute');
      expect(minutes).toEqual(sorted([
        rollup(day, a, { count: 3, spentCredits: 3, latencySum: 4, latencyCount: 3 }),
        rollup(day + minute, a, { count: 1 }),
        rollup(day, { ...a, tags: ['b', 'a'] }, { count: 1 }),
        rollup(day, { ...a, tags: ['a', 'b'], identityId: 'id_1', externalId: 'acme' }, { count: 1 }),
        rollup(day + 86_400_000, { ...a, outcome: 'RATE_LIMITED' }, { count: 1 }),
      ]));
      for (const [granularity, bucket] of [['hour', day], ['day', day], ['month', Date.UTC(2025, 0, 1)]] as const) {
        expect(await allRollups(storage, granularity)).toEqual(sorted([
          rollup(bucket, a, { count: 4, spentCredits: 3, latencySum: 4, latencyCount: 3 }),
          rollup(bucket, { ...a, tags: ['b', 'a'] }, { count: 1 }),
          rollup(bucket, { ...a, tags: ['a', 'b'], identityId: 'id_1', externalId: 'acme' }, { count: 1 }),
          rollup(granularity === 'month' ? Date.UTC(2025, 1, 1) : day + 86_400_000, { ...a, outcome: 'RATE_LIMITED' }, { count: 1 }),
        ]));
      }
    });

    it('increments naming one row twice in one append add up', async () => {
      storage = await open(1_000);
      const minute = Date.UTC(2025, 4, 2, 8, 15);
      const [once] = rollupDeltas([record(minute + 1, { latency: 0.5, spentCredits: 2 })], ['minute']);
      await storage.verifications.append([], [once!, { ...once!, count: 2, latencySum: 1.25, latencyCount: 2, spentCredits: 0 }]);
      expect((await allRollups(storage, 'minute')).map(({ count, spentCredits, latencySum, latencyCount }) => ({ count, spentCredits, latencySum, latencyCount })))
        .toEqual([{ count: 3, spentCredits: 2, latencySum: 1.75, latencyCount: 3 }]);
    });

    it('rollups keep their counts when the records are dropped beyond the bound', async () => {
      storage = await open(100);
      await storage.verifications.append(Array.from({ length: 150 }, (_, i) => record(Date.UTC(2025, 5, 1) + i * 1_000)));
      expect(await storage.verifications.count()).toBe(100);
      expect((await allRollups(storage, 'day')).map((r) => r.count)).toEqual([150]);
      expect((await allRollups(storage, 'minute')).map((r) => r.count)).toEqual([60, 60, 30]);
    });

    it('scanRollups reads the buckets starting in [fromMs, toMs), each row once, whatever the page size', async () => {
      storage = await open(10_000);
      const start = Date.UTC(2025, 2, 1);
      const records = Array.from({ length: 300 }, (_, i) => record(start + (i % 60) * 60_000 + i, { keyId: `key_${i % 7}` }));
      await storage.verifications.append(records);
      const all = await allRollups(storage, 'minute');
      expect(all.reduce((n, r) => n + r.count, 0)).toBe(300);
      expect(new Set(all.map((r) => r.time)).size).toBe(60);
      for (const limit of [1, 5, 1_000]) {
        const some = await allRollups(storage, 'minute', { limit, fromMs: start + 10 * 60_000, toMs: start + 20 * 60_000 });
        expect(some).toEqual(all.filter((r) => r.time >= start + 10 * 60_000 && r.time < start + 20 * 60_000));
      }
    });

    it('a rollup bucket of 150,000 rows (a minute of as many keys) is read whole', async () => {
      storage = await open(1_000);
      const minute = Date.UTC(2025, 7, 1, 9, 30);
      const many = Array.from({ length: 150_000 }, (_, i) => record(minute + (i % 60_000), { keyId: `key_${i}` }));
      await storage.verifications.append([], rollupDeltas(many, ['minute']));
      const rows = await allRollups(storage, 'minute', { limit: 50_000 });
      expect(rows.length).toBe(150_000);
      expect(new Set(rows.map((r) => r.keyId)).size).toBe(150_000);
    }, 120_000);

    it('pruneRollups removes the buckets of one granularity that start before the bound, only those', async () => {
      storage = await open(1_000);
      const day = 86_400_000;
      const start = Date.UTC(2025, 3, 10);
      await storage.verifications.append([record(start), record(start + day), record(start + 2 * day)]);
      await storage.verifications.pruneRollups('day', start + day);
      expect((await allRollups(storage, 'day')).map((r) => r.time)).toEqual([start + day, start + 2 * day]);
      expect((await allRollups(storage, 'hour')).map((r) => r.time)).toEqual([start, start + day, start + 2 * day]);
      await storage.verifications.pruneRollups('hour', start + 10 * day);
      expect(await allRollups(storage, 'hour')).toEqual([]);
      expect(await storage.verifications.count()).toBe(3);
      // New records after a prune land in fresh rows.
      await storage.verifications.append([record(start + 2 * day + 5)]);
      expect((await allRollups(storage, 'hour')).map((r) => r.count)).toEqual([1]);
      expect((await allRollups(storage, 'day')).map((r) => r.count)).toEqual([1, 2]);
    });
  });
}

async function scanAll(storage: Storage, options: { limit: number; fromMs?: number; toMs?: number }): Promise<VerificationRecord[]> {
  const out: VerificationRecord[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await storage.verifications.scan({ ...options, ...(cursor !== undefined ? { cursor } : {}) });
    out.push(...page.items);
    if (page.cursor === null) return out;
    cursor = page.cursor;
  }
  throw new Error('scan did not end');
}

/** Every row of a rollup scan, sorted (rows of one bucket come in no particular order). */
async function allRollups(storage: Storage, granularity: RollupGranularity, options: { limit?: number; fromMs?: number; toMs?: number } = {}): Promise<VerificationRollup[]> {
  const out: VerificationRollup[] = [];
  let cursor: string | undefined;
  let lastTime = -Infinity;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await storage.verifications.scanRollups(granularity, { limit: 100, ...options, ...(cursor !== undefined ? { cursor } : {}) });
    for (const row of page.items) {
      expect(row.time).toBeGreaterThanOrEqual(lastTime); // bucket order across pages
      lastTime = row.time;
    }
    for (const row of page.items) out.push(row);
    if (page.cursor === null) return sorted(out);
    cursor = page.cursor;
  }
  throw new Error('rollup scan did not end');
}

function rollup(time: number, dims: Partial<VerificationRollup>, sums: Partial<VerificationRollup>): VerificationRollup {
  return { time, apiId: 'api_1', keyId: 'key_1', outcome: 'VALID', count: 0, spentCredits: 0, latencySum: 0, latencyCount: 0, ...dims, ...sums };
}

const dims = (r: VerificationRollup): string => JSON.stringify([r.apiId, r.keyId, r.identityId, r.externalId, r.outcome, r.tags]);
const sorted = (rows: VerificationRollup[]): VerificationRollup[] =>
  [...rows].sort((a, b) => a.time - b.time || dims(a).localeCompare(dims(b)));
