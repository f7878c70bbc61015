/**
 * Root keys in Redis: record hash `rootkey:{<id>}:rec`, hash index `rootkey-hash:{<digest>}:id`,
 * and one sorted set of all ids for list() (root keys are few).
 *
 * Crash ordering (open.ts): put claims the new hash and adds the id to the set, then writes the
 * record (commit), then releases a replaced hash. A replaced hash stops authenticating at the
 * commit already: findByHash only answers when the record still has that hash. remove deletes
 * the record first, then the set entry and the hash.
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { RootKeyRecord } from '../records.js';
import { DuplicateError, type RootKeyStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import { backoff, MAX_ATTEMPTS, type RecordIo } from './record-io.js';
import { isFresh, type UniqueIndex } from './unique-index.js';

export class RedisRootKeyStore implements RootKeyStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
  ) {}

  async put(record: RootKeyRecord, event?: AuditEvent): Promise<void> {
    const hashKey = this.k.rootKeyByHash(record.hash);
    const holds = async (holder: string): Promise<boolean> => (await this.get(holder))?.hash === record.hash;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.io.read<RootKeyRecord>(this.k.rootKey(record.id));
      const claim = await this.index.claim(hashKey, record.id, holds);
      // Root key hashes are SHA-256 of random secrets: another root key with this hash is a bug.
      if (claim.kind !== 'claimed') throw new DuplicateError('hash');
      await this.client.zadd(this.k.rootKeyIds, 0, record.id);
      if (!isFresh(claim)) continue;
      if (!(await this.io.write(this.k.rootKey(record.id), current?.version ?? 0, record, [], event))) {
        await backoff(attempt);
        continue;
      }
      if (current && current.record.hash !== record.hash) await this.index.release(this.k.rootKeyByHash(current.record.hash), record.id);
      return;
    }
    throw new Error(`too many concurrent changes of root key ${record.id}`);
  }

  async findByHash(hash: string): Promise<RootKeyRecord | null> {
    const holder = await this.index.holder(this.k.rootKeyByHash(hash));
    if (holder === null) return null;
    const record = await this.get(holder);
    return record?.hash === hash ? record : null;
  }

  async get(id: string): Promise<RootKeyRecord | null> {
    return this.io.get<RootKeyRecord>(this.k.rootKey(id));
  }

  async list(): Promise<RootKeyRecord[]> {
    const ids = await this.client.zrange(this.k.rootKeyIds, 0, -1);
    const records = (await this.io.getMany<RootKeyRecord>(ids.map((id) => this.k.rootKey(id)))).filter((r) => r !== null);
    // Stable sort of an id-ordered list: equal times stay in id order, as in LMDB.
    return records.sort((a, b) => a.createdAt - b.createdAt);
  }

  async revoke(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    return this.io.update<RootKeyRecord, boolean>(this.k.rootKey(id), (current) => {
      if (!current) return { result: false };
      // Revoked already: rewritten unchanged only to carry the call's event, as LMDB stores it.
      if (current.record.revokedAt !== undefined) return event ? { result: true, write: current.record } : { result: true };
      return { result: true, write: { ...current.record, revokedAt: atMs } };
    }, event);
  }

  async remove(id: string, event?: AuditEvent): Promise<void> {
    const removed = await this.io.update<RootKeyRecord, RootKeyRecord | null>(this.k.rootKey(id),
      (current) => (current ? { result: current.record, remove: true } : { result: null }), event);
    if (!removed) return;
    await this.client.zrem(this.k.rootKeyIds, id);
    await this.index.release(this.k.rootKeyByHash(removed.hash), id);
  }
}
