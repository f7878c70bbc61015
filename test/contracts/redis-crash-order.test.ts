/**
 * The crash-ordering rules of src/storage/redis/open.ts, shown by building by hand the state a
 * crash between two steps of a cross-slot write leaves behind, then checking what readers and
 * later writers make of it. Standalone Redis; the key layout is the storage's own (keys.ts).
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/redis/client.js';
import { storageKeys, type StorageKeys } from '../../src/storage/redis/keys.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import { WORKSPACE_ID, type IdentityRecord, type KeyRecord } from '../../src/storage/records.js';
import { DuplicateError, type Storage } from '../../src/storage/types.js';
import { connect, freshPrefix } from './redis-storage-runner.js';

const hash = (): string => randomBytes(32).toString('base64');
const key = (overrides: Partial<KeyRecord> = {}): KeyRecord => ({
  id: `key_${randomBytes(6).toString('hex')}`, workspaceId: WORKSPACE_ID, apiId: 'api_crash', keyspaceId: 'ks_1', hash: hash(),
  start: 'prod_', enabled: true, hasCredits: false, ratelimits: [], permissions: [], roles: [], createdAt: 1_000, ...overrides,
});

describe('Redis storage: a crash between the steps of a cross-slot write leaves nothing half made', () => {
  let client: RedisClient;
  let storage: Storage;
  let k: StorageKeys;
  beforeEach(async () => {
    client = await connect('standalone');
    const prefix = freshPrefix();
    storage = openRedisStorage(client, { keyPrefix: prefix });
    k = storageKeys(prefix);
  });
  afterEach(async () => {
    await storage.close();
    await client.quit();
  });

  it('insert crashed after claiming the hash and listing the key: absent everywhere, and the hash is free for a later insert', async () => {
    const h = hash();
    // Claimed long ago (claim time 0) by a key whose record was never written.
    await client.set(k.keyByHash(h), 'key_ghost|0');
    await client.zadd(k.keysOfApi('api_crash'), 0, 'key_ghost');
    expect(await storage.keys.findByHash(h)).toBeNull();
    expect(await storage.keys.get('key_ghost')).toBeNull();
    expect(await storage.keys.listByApi('api_crash', { limit: 10 })).toEqual([]);

    const successor = key({ hash: h });
    await storage.keys.insert(successor, { remaining: 3 });
    expect(await storage.keys.findByHash(h)).toEqual({ ...successor, hasCredits: true });
    expect(await storage.keys.listByApi('api_crash', { limit: 10 })).toEqual([{ ...successor, hasCredits: true }]);
    expect(await client.get(k.keyByHash(h))).toMatch(new RegExp(`^${successor.id}\\|\\d+$`));
  });

  it('a retried insert takes back its own claim at once, however young', async () => {
    const record = key();
    await client.set(k.keyByHash(record.hash), `${record.id}|${Date.now()}`);
    await storage.keys.insert(record, null);
    expect(await storage.keys.findByHash(record.hash)).toEqual(record);
  });

  it('a young claim of another id may be a write in flight: it blocks the hash, and reads as absent', async () => {
    const h = hash();
    await client.set(k.keyByHash(h), `key_inflight|${Date.now()}`);
    const err = await storage.keys.insert(key({ hash: h }), null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DuplicateError);
    expect((err as DuplicateError).what).toBe('hash');
    expect(await storage.keys.findByHash(h)).toBeNull();
  });

  it('a getOrCreate that meets a claim in flight waits for that record instead of making a second one', async () => {
    const winner: IdentityRecord = { id: 'id_inflight', workspaceId: WORKSPACE_ID, externalId: 'racer', ratelimits: [], createdAt: 1_000 };
    await client.set(k.identityByExternalId(WORKSPACE_ID, 'racer'), `${winner.id}|${Date.now()}`);
    let made = 0;
    const waiting = storage.identities.getOrCreate(WORKSPACE_ID, 'racer', () => {
      made++;
      return { ...winner, id: 'id_second' };
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The writer in flight finishes: its own claim, then its record.
    await storage.identities.insert(winner);
    expect(await waiting).toEqual(winner);
    expect(made).toBe(1);
    expect(await storage.identities.get('id_second')).toBeNull();
  });

  it('modify crashed after claiming the new hash: the key keeps its old hash; the new one is absent, then claimable', async () => {
    const record = key();
    await storage.keys.insert(record, null);
    const next = hash();
    await client.set(k.keyByHash(next), `${record.id}|0`);
    expect(await storage.keys.findByHash(next)).toBeNull();
    expect(await storage.keys.findByHash(record.hash)).toEqual(record);
    const other = key({ hash: next });
    await storage.keys.insert(other, null);
    expect(await storage.keys.findByHash(next)).toEqual(other);
    await expect(storage.keys.modify(record.id, (r) => ({ ...r, hash: next }))).rejects.toBeInstanceOf(DuplicateError);
  });

  it('modify crashed after the record write, before releasing the old hash: the old hash reads as absent', async () => {
    const record = key();
    await storage.keys.insert(record, null);
    const oldEntry = await client.get(k.keyByHash(record.hash));
    const moved = await storage.keys.modify(record.id, (r) => ({ ...r, hash: hash() }));
    await client.set(k.keyByHash(record.hash), oldEntry!.replace(/\|\d+$/, '|0'));
    expect(await storage.keys.findByHash(record.hash)).toBeNull();
    expect(await storage.keys.findByHash(moved!.hash)).toEqual(moved);
    await storage.keys.insert(key({ hash: record.hash }), null);
  });

  it('delete crashed after deleting the record: the index and listing entries left behind read as absent', async () => {
    const record = key();
    await storage.keys.insert(record, { remaining: 5 });
    // The record (with its credits) is gone; the index entry and the listing entry are not.
    await client.del(k.key(record.id));
    await client.set(k.keyByHash(record.hash), `${record.id}|0`);
    expect(await storage.keys.findByHash(record.hash)).toBeNull();
    expect(await storage.keys.getCredits(record.id)).toBeNull();
    expect(await storage.keys.listByApi('api_crash', { limit: 10 })).toEqual([]);
    expect(await storage.keys.delete(record.id)).toBe(false);
    const successor = key({ hash: record.hash });
    await storage.keys.insert(successor, null);
    expect(await storage.keys.findByHash(record.hash)).toEqual(successor);
  });

  it('permission delete crashed after stripping keys: the permission is still whole, and a retry finishes', async () => {
    const permission = { id: 'perm_crash', workspaceId: WORKSPACE_ID, name: 'docs.read', slug: 'docs.read', createdAt: 1_000 };
    await storage.permissions.insert(permission);
    const holder = key({ permissions: ['docs.read'] });
    await storage.keys.insert(holder, null);
    // The first step of delete only: the key loses the slug; the record and its slug remain.
    await storage.keys.modify(holder.id, (r) => ({ ...r, permissions: [] }));
    expect(await storage.permissions.findBySlug(WORKSPACE_ID, 'docs.read')).toEqual(permission);
    expect(await storage.permissions.delete(permission.id)).toBe(true);
    expect(await storage.permissions.findBySlug(WORKSPACE_ID, 'docs.read')).toBeNull();
    await storage.permissions.insert({ ...permission, id: 'perm_again' });
  });
});
