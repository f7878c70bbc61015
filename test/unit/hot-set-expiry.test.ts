/**
 * The verification hot set's time to live (src/keys/hot-set.ts), on a real LMDB folder: an entry
 * is built again once its time is up, and entries built together do not all fall due together
 * (they would be rebuilt in one burst of storage reads).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { VerificationHotSet } from '../../src/keys/hot-set.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { expectSpreadExpiry } from '../support/expiry.js';

describe('verification hot set expiry', () => {
  let dir: string;
  let storage: ReturnType<typeof openLmdbStorage> | undefined;
  afterEach(async () => {
    await storage?.close();
    storage = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  test('entries remembered together expire spread over the last quarter of the TTL, every one by the TTL', async () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-hotset-'));
    storage = openLmdbStorage(dir);
    let now = 0;
    const hot = new VerificationHotSet(storage, storage.changes, { maxEntries: 1_000, ttlMs: 60_000, now: () => now });
    const hashes = Array.from({ length: 200 }, (_, i) => `unknown-hash-${i}`);
    for (const hash of hashes) await hot.load(hash);
    const remembered = (): number => hashes.filter((hash) => hot.peek(hash) !== undefined).length;
    expect(remembered()).toBe(200);
    expectSpreadExpiry(60_000, 200, (ms) => { now = ms; }, remembered);
    expect(hot.size).toBe(0);
  });

  test('without a TTL (embedded: every change arrives through the change log) entries never expire', async () => {
    dir = mkdtempSync(join(tmpdir(), 'keygate-hotset-'));
    storage = openLmdbStorage(dir);
    let now = 0;
    const hot = new VerificationHotSet(storage, storage.changes, { maxEntries: 1_000, now: () => now });
    await hot.load('unknown-hash');
    now = 365 * 86_400_000;
    expect(hot.peek('unknown-hash')).not.toBeUndefined();
  });
});
