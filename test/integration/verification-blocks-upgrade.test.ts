/**
 * Upgrading a Redis or an LMDB folder written before verification records were stored in blocks:
 * the records stored one per member (entry) are read back with the new blocks, in time order,
 * count towards the retained number and are the first to go. Blocks whose body is msgpack (before
 * bodies were written byte by byte) read back too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { pack } from 'msgpackr';
import { afterEach, describe, expect, it } from 'vitest';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { encode } from '../../src/redis/codec.js';
import { storageKeys } from '../../src/storage/redis/keys.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import type { VerificationRecord } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';
import { connect, freshPrefix } from '../contracts/redis-storage-runner.js';

let n = 0;
const record = (time: number, extra: Partial<VerificationRecord> = {}): VerificationRecord =>
  ({ time, requestId: `req_up${++n}`, apiId: 'api_1', keyId: 'key_1', outcome: 'VALID', spentCredits: 0, ...extra });

/** The tuple stored per record before blocks (after the time). */
const tuple = (r: VerificationRecord): unknown[] =>
  [r.requestId, r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null, r.spentCredits, r.latency ?? null];

const old = [
  record(1_000, { identityId: 'id_1', externalId: 'acme', tags: ['a'], latency: 0.5 }),
  record(2_000, { spentCredits: 2, outcome: 'USAGE_EXCEEDED' }),
  record(3_000),
];

async function checkUpgrade(storage: Storage): Promise<void> {
  expect(await storage.verifications.count()).toBe(3);
  const fresh = [record(2_000), record(4_000), record(5_000)];
  await storage.verifications.append(fresh);
  // Same millisecond: the record stored first comes first.
  expect(await storage.verifications.range({ limit: 100 })).toEqual([old[0], old[1], fresh[0], old[2], fresh[1], fresh[2]]);
  expect(await storage.verifications.count()).toBe(6);
  // Six are retained: the oldest record (stored before blocks) goes first.
  const last = record(6_000);
  await storage.verifications.append([last]);
  expect(await storage.verifications.count()).toBe(6);
  expect(await storage.verifications.range({ limit: 100 })).toEqual([old[1], fresh[0], old[2], fresh[1], fresh[2], last]);
}

describe('verification records stored one per entry before blocks', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it('Redis: members of one record are read and trimmed with the blocks', async () => {
    const client = await connect('standalone');
    const prefix = freshPrefix();
    const k = storageKeys(prefix);
    for (const [i, r] of old.entries()) {
      await client.zadd(k.verifications, r.time, Buffer.concat([Buffer.from((i + 1).toString(16).padStart(16, '0')), encode([r.time, ...tuple(r)])]));
    }
    await client.set(k.verificationSequence, old.length);
    const storage = openRedisStorage(client, { keyPrefix: prefix, verificationsRetained: 6 });
    cleanup = async () => { await storage.close(); await client.quit(); };
    await checkUpgrade(storage);
  });

  it('LMDB: entries of one record are read and trimmed with the blocks, and an old cursor still pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-blocks-'));
    const root = open({ path: dir, name: undefined, maxDbs: 32, noSubdir: false }) as RootDatabase;
    const db = root.openDB({ name: 'verifications', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') });
    await root.transaction(() => {
      for (const [i, r] of old.entries()) db.put([r.time, i + 1], tuple(r));
    });
    await root.close();
    const storage = openLmdbStorage(dir, { verificationsRetained: 6 });
    cleanup = async () => { await storage.close(); rmSync(dir, { recursive: true, force: true }); };
    // A cursor handed out before the upgrade ([time, sequence] of the last record of a page).
    const page = await storage.verifications.scan({ limit: 10, cursor: JSON.stringify([old[0]!.time, 1]) });
    expect(page.items).toEqual(old.slice(1));
    await checkUpgrade(storage);
  });

  it('Redis and LMDB: blocks whose body is msgpack columns (written before bodies were bytes) read back with new ones', async () => {
    const written = [record(1_000, { tags: ['a'], latency: 0.5, spentCredits: 2 }), record(1_000), record(3_000, { identityId: 'id_1', externalId: 'acme' })];
    const dimsOf = (r: VerificationRecord): string => JSON.stringify([r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null]);
    const body = pack([written.map((r) => r.time), written.map((r) => r.requestId), written.map(dimsOf), [0, 1, 2],
      written.map((r) => r.spentCredits), written.map((r) => r.latency ?? null)]);
    const fresh = [record(2_000, { latency: 1.25 }), record(4_000)];
    const expected = [written[0], written[1], fresh[0], written[2], fresh[1]];

    const client = await connect('standalone');
    const prefix = freshPrefix();
    const k = storageKeys(prefix);
    await client.zadd(k.verifications, 1_000, Buffer.concat([Buffer.from(`${'7'.padStart(16, '0')}${'0'.padStart(8, '0')}${'3'.padStart(8, '0')}`, 'latin1'), body]));
    await client.set(k.verificationSequence, 7);
    await client.set(k.verificationCount, 3);
    const redis = openRedisStorage(client, { keyPrefix: prefix });
    cleanup = async () => { await redis.close(); await client.quit(); };
    await redis.verifications.append(fresh);
    expect(await redis.verifications.range({ limit: 100 })).toEqual(expected);

    const dir = mkdtempSync(join(tmpdir(), 'keygate-blocks-'));
    const root = open({ path: dir, name: undefined, maxDbs: 32, noSubdir: false }) as RootDatabase;
    const db = root.openDB({ name: 'verifications', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') });
    await root.transaction(() => db.put([1_000, 1], [0, 3, body]));
    await root.close();
    const lmdb = openLmdbStorage(dir);
    const closeRedis = cleanup;
    cleanup = async () => { await closeRedis(); await lmdb.close(); rmSync(dir, { recursive: true, force: true }); };
    await lmdb.verifications.append(fresh);
    expect(await lmdb.verifications.range({ limit: 100 })).toEqual(expected);
  });

  it('LMDB: blocks stay in ordinary pages (no overflow pages), whatever the tags', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-blocks-'));
    const storage = openLmdbStorage(dir);
    cleanup = async () => { await storage.close(); rmSync(dir, { recursive: true, force: true }); };
    const records = Array.from({ length: 20_000 }, (_, i) => record(1_000 + (i >> 4), {
      keyId: `key_${i % 500}`, latency: i / 7, spentCredits: i % 3, ...(i % 5 === 0 ? { tags: [`path=/v1/items/${i}`, 'region=eu'] } : {}),
    }));
    await storage.verifications.append(records);
    expect(await storage.verifications.range({ limit: 100_000 })).toEqual(records);
    const root = open({ path: dir, name: undefined, maxDbs: 32, noSubdir: false }) as RootDatabase;
    const stats = root.openDB({ name: 'verifications', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') }).getStats() as { entryCount: number; overflowPages: number };
    expect(stats.overflowPages).toBe(0);
    // Blocks, not one entry per record.
    expect(stats.entryCount).toBeLessThan(records.length / 10);
  });
});
