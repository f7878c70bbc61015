import type { NamespaceRecord } from '../records.js';
import type { ListOptions, NamespaceStore } from '../types.js';
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

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<NamespaceRecord[]> {
    const needle = options.search?.trim().toLowerCase();
    const out: NamespaceRecord[] = [];
    if (options.limit <= 0) return out;
    for (const { value } of this.t.namespaces.getRange({ start: options.cursor ?? '' })) {
      const record = value as NamespaceRecord;
      if (record.workspaceId !== workspaceId || record.deletedAt !== undefined) continue;
      if (needle && !record.id.toLowerCase().includes(needle) && !record.name.toLowerCase().includes(needle)) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }
}
