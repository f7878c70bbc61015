/** Rate-limit namespaces, found by name or id on every ratelimit.limit, through the record cache. */
import type { NamespaceRecord } from '../records.js';
import type { ListOptions, NamespaceStore } from '../types.js';
import { scopedKey, type RecordCache } from './record-cache.js';

export class CachedNamespaceStore implements NamespaceStore {
  constructor(private readonly inner: NamespaceStore, private readonly cache: RecordCache) {}

  find(workspaceId: string, nameOrId: string): Promise<NamespaceRecord | null> {
    return this.cache.read('namespace', scopedKey(workspaceId, nameOrId), () => this.inner.find(workspaceId, nameOrId));
  }

  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<NamespaceRecord[]> {
    return this.inner.list(workspaceId, options);
  }

  // Other replicas may hold "no such namespace" for the name just created.
  async getOrCreate(workspaceId: string, name: string, create: () => NamespaceRecord): Promise<NamespaceRecord> {
    const record = await this.inner.getOrCreate(workspaceId, name, create);
    await this.cache.changed('namespace');
    return record;
  }

  async markDeleted(id: string, atMs: number): Promise<boolean> {
    const done = await this.inner.markDeleted(id, atMs);
    await this.cache.changed('namespace');
    return done;
  }
}
