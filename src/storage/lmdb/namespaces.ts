import type { NamespaceRecord } from '../records.js';
import type { NamespaceStore } from '../types.js';
import { getOrInsert, scoped, type LmdbTables } from './open.js';

export class LmdbNamespaceStore implements NamespaceStore {
  constructor(private readonly t: LmdbTables) {}

  async find(workspaceId: string, nameOrId: string): Promise<NamespaceRecord | null> {
    const byId = this.t.namespaces.get(nameOrId) as NamespaceRecord | undefined;
    if (byId && byId.workspaceId === workspaceId) return byId;
    const id = this.t.namespaceByName.get(scoped(workspaceId, nameOrId));
    return id === undefined ? null : ((this.t.namespaces.get(id) as NamespaceRecord | undefined) ?? null);
  }

  async markDeleted(id: string, atMs: number): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.namespaces.get(id) as NamespaceRecord | undefined;
      if (!record || record.deletedAt !== undefined) return false;
      this.t.namespaces.put(id, { ...record, deletedAt: atMs });
      return true;
    });
  }

  async getOrCreate(workspaceId: string, name: string, create: () => NamespaceRecord): Promise<NamespaceRecord> {
    return getOrInsert(this.t, this.t.namespaces, this.t.namespaceByName, scoped(workspaceId, name), create);
  }
}
