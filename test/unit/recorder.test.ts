import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { VerificationRecorder } from '../../src/analytics/recorder.js';
import { createLogger } from '../../src/obs/log.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage, VerificationStore } from '../../src/storage/types.js';
import { ServiceUnavailableError } from '../../src/errors/api-error.js';
import { gate } from '../support/gate.js';

const record = (i: number) => ({ time: 1_000 + i, requestId: `req_${i}`, apiId: 'api_1', keyId: 'key_1', outcome: 'VALID', spentCredits: 0 });

describe('VerificationRecorder (on a real LMDB store)', () => {
  let dir: string;
  let storage: Storage;
  let logged = '';
  const log = createLogger('warn', new Writable({ write(chunk, _e, done) { logged += String(chunk); done(); } }));
  const open = () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-recorder-'));
    storage = openLmdbStorage(dir);
  };
  /** Verifications counted in every rollup row of `granularity`, page by page. */
  const countedIn = async (granularity: 'minute' | 'hour' | 'day' | 'month'): Promise<number> => {
    let sum = 0;
    let cursor: string | undefined;
    do {
      const page = await storage.verifications.scanRollups(granularity, { limit: 10_000, ...(cursor !== undefined ? { cursor } : {}) });
      sum += page.items.reduce((n, r) => n + r.count, 0);
      cursor = page.cursor ?? undefined;
    } while (cursor !== undefined);
    return sum;
  };
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a minute of 60,000 keys (240,000 held rollup increments) is written whole, without overflowing the call stack', async () => {
    open();
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, maxPending: 100_000 });
    const keys = 60_000;
    const time = Date.UTC(2025, 4, 20, 12, 30, 5);
    for (let i = 0; i < keys; i++) recorder.record({ ...record(i), time, keyId: `key_${i}` });
    await recorder.flush();
    expect(await storage.verifications.count()).toBe(keys);
    for (const granularity of ['minute', 'day'] as const) expect(await countedIn(granularity)).toBe(keys);
    await recorder.close();
  }, 60_000);

  test('records wait in memory until a flush, then arrive in order', async () => {
    open();
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 5; i++) recorder.record(record(i));
    expect(await storage.verifications.count()).toBe(0);
    await recorder.flush();
    expect((await storage.verifications.range({ limit: 10 })).map((r) => r.requestId)).toEqual(['req_0', 'req_1', 'req_2', 'req_3', 'req_4']);
    await recorder.close();
  });

  test('a full batch is written without waiting for the timer; close writes the rest', async () => {
    open();
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, batchSize: 3 });
    for (let i = 0; i < 4; i++) recorder.record(record(i));
    await recorder.flush();
    expect(await storage.verifications.count()).toBe(4);
    recorder.record(record(9));
    await recorder.close();
    expect(await storage.verifications.count()).toBe(5);
  });

  test('past maxPending, records are dropped and counted instead of buffered', async () => {
    open();
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, maxPending: 5 });
    for (let i = 0; i < 8; i++) recorder.record(record(i));
    expect(recorder.dropped).toBe(3);
    await recorder.close();
    expect(await storage.verifications.count()).toBe(5);
    expect(logged).toContain('dropped');
  });

  test('records handed to a store that has not answered yet count against maxPending', async () => {
    open();
    const held = gate();
    const slow: VerificationStore = Object.assign(Object.create(storage.verifications) as VerificationStore, {
      appendColumns: async (...args: Parameters<VerificationStore['appendColumns']>) => {
        await held.pass();
        return storage.verifications.appendColumns(...args);
      },
    });
    const recorder = new VerificationRecorder(slow, log, { flushIntervalMs: 60_000, batchSize: 4, maxPending: 6 });
    // The first four go to the store, which holds them; two more fit, the rest are dropped.
    for (let i = 0; i < 9; i++) recorder.record(record(i));
    await held.reached;
    expect(recorder.dropped).toBe(3);
    held.open();
    await recorder.close();
    expect(await storage.verifications.count()).toBe(6);
  });

  test('records are written with every batch; rollups are summed and written with the first batch after each UTC minute ends (hour, day and month from the minute sums); flush() writes everything', async () => {
    open();
    let now = Date.UTC(2025, 4, 20, 12, 30);
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, batchSize: 2, now: () => now });
    const counts = async (granularity: 'minute' | 'hour' | 'day' | 'month') =>
      (await storage.verifications.scanRollups(granularity, { limit: 100 })).items.map((r) => r.count);
    // Full batches are written without being awaited: wait until the records are in.
    const settle = async (records: number) => {
      for (let waited = 0; (await storage.verifications.count()) < records && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    };
    // Two full batches, written without the timer: the records now, every rollup held.
    for (let i = 0; i < 4; i++) recorder.record({ ...record(i), time: now + i });
    await settle(4);
    expect(await storage.verifications.count()).toBe(4);
    expect(await counts('minute')).toEqual([]);
    expect(await counts('hour')).toEqual([]);
    // Later in the same minute: still held.
    now += 5_000;
    for (let i = 4; i < 6; i++) recorder.record({ ...record(i), time: now });
    await settle(6);
    await recorder.writeBuffered();
    expect(await counts('minute')).toEqual([]);
    expect(await counts('hour')).toEqual([]);
    // The next minute's first batch hands everything over: one minute row per minute, and the
    // hour, day and month rows summed from them.
    now += 60_000;
    for (let i = 6; i < 8; i++) recorder.record({ ...record(i), time: now });
    await settle(8);
    await recorder.writeBuffered();
    expect(await counts('minute')).toEqual([6, 2]);
    expect(await counts('hour')).toEqual([8]);
    expect(await counts('day')).toEqual([8]);
    expect(await counts('month')).toEqual([8]);
    // flush() (and close) write everything held at once.
    recorder.record({ ...record(8), time: now });
    await recorder.flush();
    expect(await counts('minute')).toEqual([6, 3]);
    expect(await counts('hour')).toEqual([9]);
    await recorder.close();
  });

  test('with many keys, a minute\'s rollup rows go out a slice per write over the next 20 s, not in one write; each is counted once, and flush() writes what is left at once', async () => {
    open();
    let now = Date.UTC(2025, 4, 20, 12, 30, 10);
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, now: () => now });
    const totals = async () => Promise.all((['minute', 'hour', 'day', 'month'] as const).map(countedIn));
    const keys = 3_000;
    const verifyEveryKey = (time: number) => {
      for (let i = 0; i < keys; i++) recorder.record({ ...record(i), time, keyId: `key_${i}` });
    };

    verifyEveryKey(now);
    await recorder.writeBuffered();
    expect(await totals()).toEqual([0, 0, 0, 0]);

    // The minute ended: the first write carries part of the due rows, later writes the rest.
    now += 60_000;
    await recorder.writeBuffered();
    const first = await totals();
    expect(first.reduce((a, b) => a + b)).toBeGreaterThan(0);
    expect(first.reduce((a, b) => a + b)).toBeLessThan(4 * keys);
    now += 10_000;
    await recorder.writeBuffered();
    const second = await totals();
    expect(second.reduce((a, b) => a + b)).toBeGreaterThan(first.reduce((a, b) => a + b));
    expect(second.reduce((a, b) => a + b)).toBeLessThan(4 * keys);
    now += 10_001;
    await recorder.writeBuffered();
    expect(await totals()).toEqual([keys, keys, keys, keys]);
    expect(await storage.verifications.count()).toBe(keys);

    // Another minute, then a flush (as analytics queries make) before the drain is over: everything.
    verifyEveryKey(now);
    now += 60_000;
    await recorder.writeBuffered();
    expect((await totals()).reduce((a, b) => a + b)).toBeLessThan(8 * keys);
    await recorder.flush();
    expect(await totals()).toEqual([2 * keys, 2 * keys, 2 * keys, 2 * keys]);
    await recorder.close();
    expect(await totals()).toEqual([2 * keys, 2 * keys, 2 * keys, 2 * keys]);
  });

  test('prune removes the rollup buckets before the one holding now − retention, per granularity', async () => {
    open();
    const now = Date.UTC(2025, 4, 20, 12, 30);
    const day = 86_400_000;
    const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 60_000, rollupRetentionMs: 2 * day, now: () => now });
    for (const [i, time] of [now - 3 * day, now - 2 * day - 60_000, now - 2 * day + 60_000, now - 60_000].entries()) recorder.record({ ...record(i), time });
    await recorder.flush();
    await recorder.prune();
    const starts = async (granularity: 'minute' | 'day' | 'month') =>
      (await storage.verifications.scanRollups(granularity, { limit: 100 })).items.map((r) => new Date(r.time).toISOString());
    // now − 2 days = 2025-05-18 12:30: its minute, its day (05-18) and its month (05) are kept.
    expect(await starts('minute')).toEqual(['2025-05-18T12:31:00.000Z', '2025-05-20T12:29:00.000Z']);
    expect(await starts('day')).toEqual(['2025-05-18T00:00:00.000Z', '2025-05-20T00:00:00.000Z']);
    expect(await starts('month')).toEqual(['2025-05-01T00:00:00.000Z']);
    // The records themselves are bounded by count (VERIFICATIONS_RETAINED), not by this.
    expect(await storage.verifications.count()).toBe(4);
    await recorder.close();
  });

  /** The real store, with its appends refused (with `error`) while `refusing` is set. */
  const refusing = (error: () => Error) => {
    const real = storage.verifications;
    const state = { refusing: true, tries: 0 };
    const store: VerificationStore = Object.assign(Object.create(real) as VerificationStore, {
      appendColumns: (...args: Parameters<VerificationStore['appendColumns']>) => {
        state.tries++;
        return state.refusing ? Promise.reject(error()) : real.appendColumns(...args);
      },
    });
    return { store, state };
  };

  test('a write refused because the store is unreachable is kept and written once it answers, before newer ones', async () => {
    open();
    const { store, state } = refusing(() => new ServiceUnavailableError('redis down'));
    const recorder = new VerificationRecorder(store, log, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) recorder.record(record(i));
    await recorder.flush();
    for (let i = 3; i < 5; i++) recorder.record(record(i));
    await recorder.flush(); // the older write is refused again, so the newer one waits behind it
    expect(recorder.stats()).toMatchObject({ written: 0, failed: 0, pending: 5 });
    state.refusing = false;
    await recorder.flush();
    expect((await storage.verifications.range({ limit: 10 })).map((r) => r.requestId)).toEqual(['req_0', 'req_1', 'req_2', 'req_3', 'req_4']);
    expect(recorder.stats()).toMatchObject({ written: 5, failed: 0, pending: 0 });
    await recorder.close();
  });

  test('a write refused for any other reason is dropped at once and counted, and holds back nothing', async () => {
    open();
    const { store, state } = refusing(() => new Error('the block could not be encoded'));
    const recorder = new VerificationRecorder(store, log, { flushIntervalMs: 60_000 });
    for (let i = 0; i < 3; i++) recorder.record(record(i));
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ written: 0, failed: 3, pending: 0 });
    state.refusing = false;
    for (let i = 3; i < 5; i++) recorder.record(record(i));
    await recorder.flush();
    expect((await storage.verifications.range({ limit: 10 })).map((r) => r.requestId)).toEqual(['req_3', 'req_4']);
    expect(state.tries).toBe(2);
    await recorder.close();
  });
});
