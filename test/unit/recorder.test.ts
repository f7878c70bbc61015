import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { VerificationRecorder } from '../../src/analytics/recorder.js';
import { createLogger } from '../../src/obs/log.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import type { Storage } from '../../src/storage/types.js';

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
  afterEach(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

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
});
