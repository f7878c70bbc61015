/**
 * Ratelimit namespaces in Redis: record hash `ns:{<id>}:rec` and name index
 * `ns-name:{<digest(ws, name)>}:id`. getOrCreate claims the name, then writes the record (commit);
 * a leftover claim names a missing record and reads as absent (open.ts). Names are case-sensitive.
 */
import type { NamespaceRecord } from '../records.js';
import type { NamespaceStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import type { RecordIo } from './record-io.js';
import { getOrInsert, type UniqueIndex } from './unique-index.js';

export class RedisNamespaceStore implements NamespaceStore {
  constructor(private readonly k: StorageKeys, private readonly io: RecordIo, private readonly index: UniqueIndex) {}

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
      create, async (record) => { await this.io.write(this.k.namespace(record.id), '*', record); });
  }

  async markDeleted(id: string, atMs: number): Promise<boolean> {
    return this.io.update<NamespaceRecord, boolean>(this.k.namespace(id), (current) => (!current || current.record.deletedAt !== undefined
      ? { result: false }
      : { result: true, write: { ...current.record, deletedAt: atMs } }));
  }
}
