import type { NamespaceRecord } from '../records.js';
import type { NamespaceStore } from '../types.js';
import { scoped, type LmdbTables } from './open.js';

export class LmdbNamespaceStore implements NamespaceStore {
  constructor(private readonly t: LmdbTables) {}

  async find(workspaceId: string, nameOrId: string): Promise<NamespaceRecord | null> {
    const byId = this.t.namespaces.get(nameOrId) as NamespaceRecord | undefined;
    if (byId && byId.workspaceId === workspaceId) return byId;
    const id = this.t.namespaceByName.get(scoped(workspaceId, nameOrId));
    return id === undefined ? null : ((this.t.namespaces.get(id) as NamespaceRecord | undefined) ?? null);
  }

  async getOrCreate(workspaceId: string, name: string, create: () => NamespaceRecord): Promise<NamespaceRecord> {
    const indexKey = scoped(workspaceId, name);
    const id = this.t.namespaceByName.get(indexKey);
    if (id !== undefined) return this.t.namespaces.get(id) as NamespaceRecord;
    return this.t.root.transaction(() => {
      const again = this.t.namespaceByName.get(indexKey);
      if (again !== undefined) return this.t.namespaces.get(again) as NamespaceRecord;
      const record = create();
      this.t.namespaces.put(record.id, record);
      this.t.namespaceByName.put(indexKey, record.id);
      return record;
    });
  }
}
