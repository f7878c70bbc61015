/**
 * Ratelimit namespaces in Redis: record hash `ns:{<id>}:rec`, name index
 * `ns-name:{<digest(ws, name)>}:id` and workspace listing `ns-ws:{<ws>}:ids` of live namespaces.
 * getOrCreate claims the name, lists the id, then writes the record (commit); a leftover claim or
 * listing entry names a missing record and reads as absent (open.ts). markDeleted marks the record
 * (commit), then unlists it. Names are case-sensitive.
 */
import type { RedisClient } from '../../redis/client.js';
import type { NamespaceRecord } from '../records.js';
import type { ListOptions, NamespaceStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import { listIds, matches } from './listing.js';
import type { RecordIo } from './record-io.js';
import { getOrInsert, type UniqueIndex } from './unique-index.js';

export class RedisNamespaceStore implements NamespaceStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly io: RecordIo, private readonly index: UniqueIndex) {}

  private async byName(workspaceId: string, name: string): Promise<NamespaceRecord | null> {
    const holder = await this.index.holder(this.k.namespaceByName(workspaceId, name));
    if (holder === null) return null;
    const record = await this.io.get<NamespaceRecord>(this.k.namespace(holder));
    return record && record.workspaceId === workspaceId && record.name === name ? record : null;
  }

  async find(workspaceId: string, nameOrId: string): Promise<NamespaceRecord | null> {
    const byId = await this.io.get<NamespaceRecord>(this.k.namespace(nameOrId));
    if (byId && byId.workspaceId === workspaceId) return byId;
    return this.byName(workspaceId, nameOrId);
  }

  async getOrCreate(workspaceId: string, name: string, create: () => NamespaceRecord): Promise<NamespaceRecord> {
    return getOrInsert(this.index, this.k.namespaceByName(workspaceId, name), () => this.byName(workspaceId, name),
      async (holder) => {
        const record = await this.io.get<NamespaceRecord>(this.k.namespace(holder));
        return record?.workspaceId === workspaceId && record.name === name;
      },
      create, async (record) => {
        await this.client.zadd(this.k.namespacesOf(record.workspaceId), 0, record.id);
        await this.io.write(this.k.namespace(record.id), '*', record);
      });
  }

  async markDeleted(id: string, atMs: number): Promise<boolean> {
    const deleted = await this.io.update<NamespaceRecord, NamespaceRecord | null>(this.k.namespace(id), (current) => (!current || current.record.deletedAt !== undefined
      ? { result: null }
      : { result: current.record, write: { ...current.record, deletedAt: atMs } }));
    if (!deleted) return false;
    await this.client.zrem(this.k.namespacesOf(deleted.workspaceId), id);
    return true;
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<NamespaceRecord[]> {
    return listIds(this.client, this.k.namespacesOf(workspaceId), options,
      (ids) => this.io.getMany<NamespaceRecord>(ids.map((id) => this.k.namespace(id))),
      (r) => r.workspaceId === workspaceId && r.deletedAt === undefined && matches(options.search, [r.id, r.name]));
  }
}
