/**
 * Identities in Redis: record hash `identity:{<id>}:rec`, externalId index
 * `identity-ext:{<digest(ws, externalId)>}:id`, workspace listing `identity-ws:{<ws>}:ids`.
 *
 * Crash ordering (open.ts): insert and getOrCreate claim the externalId, add the id to the
 * listing, then write the record (commit); delete removes the record (commit), then the listing
 * entry, then the externalId entry. Leftovers name a missing record and read as absent.
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { IdentityRecord } from '../records.js';
import { DuplicateError, type IdentityStore, type ListOptions } from '../types.js';
import type { StorageKeys } from './keys.js';
import { listIds, matches } from './listing.js';
import type { RecordIo } from './record-io.js';
import { getOrInsert, isFresh, type UniqueIndex } from './unique-index.js';

export class RedisIdentityStore implements IdentityStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
  ) {}

  private agrees(workspaceId: string, externalId: string): (holder: string) => Promise<boolean> {
    return async (holder) => {
      const record = await this.get(holder);
      return record !== null && record.workspaceId === workspaceId && record.externalId === externalId;
    };
  }

  private async store(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    await this.client.zadd(this.k.identitiesOf(record.workspaceId), 0, record.id);
    await this.io.write(this.k.identity(record.id), '*', record, [], event);
  }

  async insert(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    const indexKey = this.k.identityByExternalId(record.workspaceId, record.externalId);
    for (;;) {
      const claim = await this.index.claim(indexKey, record.id, this.agrees(record.workspaceId, record.externalId));
      if (claim.kind !== 'claimed') throw new DuplicateError('externalId');
      if (isFresh(claim)) return this.store(record, event);
    }
  }

  async get(id: string): Promise<IdentityRecord | null> {
    return this.io.get<IdentityRecord>(this.k.identity(id));
  }

  async findByExternalId(workspaceId: string, externalId: string): Promise<IdentityRecord | null> {
    const holder = await this.index.holder(this.k.identityByExternalId(workspaceId, externalId));
    if (holder === null) return null;
    const record = await this.get(holder);
    return record && record.workspaceId === workspaceId && record.externalId === externalId ? record : null;
  }

  async getOrCreate(workspaceId: string, externalId: string, create: () => IdentityRecord): Promise<IdentityRecord> {
    return getOrInsert(this.index, this.k.identityByExternalId(workspaceId, externalId),
      () => this.findByExternalId(workspaceId, externalId), this.agrees(workspaceId, externalId), create, (r) => this.store(r));
  }

  async update(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    // Only while it still exists: an update racing a delete must not bring the identity back.
    await this.io.update<IdentityRecord, void>(this.k.identity(record.id),
      (current) => (current ? { result: undefined, write: record } : { result: undefined }), event);
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const removed = await this.io.update<IdentityRecord, IdentityRecord | null>(this.k.identity(id),
      (current) => (current ? { result: current.record, remove: true } : { result: null }), event);
    if (!removed) return false;
    await this.client.zrem(this.k.identitiesOf(removed.workspaceId), id);
    await this.index.release(this.k.identityByExternalId(removed.workspaceId, removed.externalId), id);
    return true;
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<IdentityRecord[]> {
    return listIds(this.client, this.k.identitiesOf(workspaceId), options,
      (ids) => this.io.getMany<IdentityRecord>(ids.map((id) => this.k.identity(id))),
      (r) => r.workspaceId === workspaceId && matches(options.search, [r.id, r.externalId]));
  }
}
