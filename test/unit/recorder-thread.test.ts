/**
 * The embedded backend's recorder writes on a thread of its own (src/analytics/recorder-thread.ts):
 * what verifyKey records must arrive in the real LMDB folder, rollups included, in order, be
 * bounded while the thread is behind, survive close, and keep being stored if the thread dies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { ThreadRecorder } from '../../src/analytics/recorder-thread.js';
import { createLogger } from '../../src/obs/log.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage } from '../../src/storage/types.js';
import { PROJECT_DIR } from '../support/process.js';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const record = (i: number, keyId = 'key_1') => ({ time: T0 + i, requestId: `req_${i}`, apiId: 'api_1', keyId, outcome: 'VALID', spentCredits: 1, latency: 2 });

describe('ThreadRecorder (writer thread on a real LMDB folder)', () => {
  let dir: string;
  let storage: Storage;
  let logged = '';
  const log = createLogger('warn', new Writable({ write(chunk, _e, done) { logged += String(chunk); done(); } }));
  const start = (options: { maxPending?: number; batchSize?: number } = {}) => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-recorder-thread-'));
    storage = openLmdbStorage(dir);
    return new ThreadRecorder(storage.verifications, log, {
      store: { kind: 'lmdb', dataDir: dir }, verificationsRetained: 1_000_000, rollupRetentionMs: 400 * 86_400_000, flushIntervalMs: 60_000, ...options,
    });
  };
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
    logged = '';
  });

  test('records reach the store in order with their minute and hour rollups, and not before a flush', async () => {
    const recorder = start();
    for (let i = 0; i < 300; i++) recorder.record(record(i, `key_${i % 3}`));
    expect(await storage.verifications.count()).toBe(0);
    await recorder.flush();
    const stored = await storage.verifications.range({ limit: 1_000 });
    expect(stored.map((r) => r.requestId)).toEqual(Array.from({ length: 300 }, (_, i) => `req_${i}`));
    for (const granularity of ['minute', 'hour'] as const) {
      const rows = (await storage.verifications.scanRollups(granularity, { limit: 100 })).items;
      expect(rows.map((r) => [r.keyId, r.count, r.spentCredits, r.latencySum]).sort()).toEqual([
        ['key_0', 100, 100, 200], ['key_1', 100, 100, 200], ['key_2', 100, 100, 200],
      ]);
    }
    expect(recorder.stats()).toEqual({ written: 300, failed: 0, dropped: 0, pending: 0, onThread: true });
    await recorder.close();
  });

  test('what another thread committed is readable here once the store is told so (a flush does that)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-recorder-thread-'));
    storage = openLmdbStorage(dir);
    expect(await storage.verifications.count()).toBe(0);
    // Another thread appends while this one waits without an event-loop turn, as when a flush's
    // answer arrives in the same turn as a read made before the writer committed.
    const committed = new Int32Array(new SharedArrayBuffer(4));
    const writer = new Worker(`
      const { workerData } = require('node:worker_threads');
      import(workerData.open).then(async ({ openLmdbStorage }) => {
        const storage = openLmdbStorage(workerData.dir);
        await storage.verifications.append([workerData.record]);
        Atomics.store(workerData.committed, 0, 1);
        Atomics.notify(workerData.committed, 0);
      });`, { eval: true, workerData: { open: pathToFileURL(join(PROJECT_DIR, 'dist/storage/lmdb/open.js')).href, dir, record: record(0), committed } });
    // Bounded: a synchronous wait is beyond the test timeout's reach.
    const deadline = Date.now() + 15_000;
    while (Atomics.load(committed, 0) === 0 && Date.now() < deadline) Atomics.wait(committed, 0, 0, 50);
    expect(Atomics.load(committed, 0), 'the other thread never committed').toBe(1);
    // lmdb-js still reads through the snapshot this turn began with.
    expect(await storage.verifications.count()).toBe(0);
    storage.verifications.seeOtherThreadsWrites!();
    expect(await storage.verifications.count()).toBe(1);
    expect((await storage.verifications.range({ limit: 10 })).map((r) => r.requestId)).toEqual(['req_0']);
    await writer.terminate();
  });

  test('a full batch goes to the thread without waiting for the timer; close stores the rest', async () => {
    const recorder = start({ batchSize: 10 });
    for (let i = 0; i < 25; i++) recorder.record(record(i));
    await expect.poll(() => storage.verifications.count(), { timeout: 5_000 }).toBe(20);
    await recorder.close();
    expect(await storage.verifications.count()).toBe(25);
  });

  test('past maxPending (buffered plus not yet written), records are dropped and counted', async () => {
    const recorder = start({ maxPending: 4 });
    for (let i = 0; i < 7; i++) recorder.record(record(i));
    expect(recorder.dropped).toBe(3);
    await recorder.flush();
    expect(await storage.verifications.count()).toBe(4);
    await recorder.close();
    expect(logged).toContain('"dropped":3');
  });

  test('when the thread dies, recording goes on inline on the event loop and nothing recorded later is lost', async () => {
    const recorder = start();
    recorder.record(record(0));
    await recorder.flush();
    // Stands in for a crash of the thread (an uncaught error in it ends it the same way).
    await (recorder as unknown as { worker: Worker }).worker.terminate();
    await expect.poll(() => logged, { timeout: 5_000 }).toContain('the analytics writer thread stopped');
    for (let i = 1; i < 5; i++) recorder.record(record(i));
    expect(recorder.stats()).toMatchObject({ written: 1, pending: 4, onThread: false });
    await recorder.flush();
    expect(recorder.stats()).toMatchObject({ written: 5, pending: 0, dropped: 0, onThread: false });
    expect((await storage.verifications.range({ limit: 10 })).map((r) => r.requestId)).toEqual(['req_0', 'req_1', 'req_2', 'req_3', 'req_4']);
    await recorder.close();
  });
});
