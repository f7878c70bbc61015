/** APIs, read by id on every verification, through the record cache. */
import type { AuditEvent } from '../../audit/event.js';
import type { ApiRecord } from '../records.js';
import type { ApiStore, ListOptions } from '../types.js';
import type { RecordCache } from './record-cache.js';

export class CachedApiStore implements ApiStore {
  constructor(private readonly inner: ApiStore, private readonly cache: RecordCache) {}

  get(id: string): Promise<ApiRecord | null> {
    return this.cache.read('api', id, () => this.inner.get(id));
  }

  list(workspaceId: string, options: ListOptions): Promise<ApiRecord[]> {
    return this.inner.list(workspaceId, options);
  }

  // Nothing to evict: no replica can hold a new id (ids are never reused).
  insert(record: ApiRecord, event?: AuditEvent): Promise<void> {
    return this.inner.insert(record, event);
  }

  async markDeleted(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.markDeleted(id, atMs, event);
    await this.cache.changed('api', id);
    return done;
  }
}
