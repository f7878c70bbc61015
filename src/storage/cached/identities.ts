/** Identities, read by id for every verification of a key that has one, through the record cache. */
import type { AuditEvent } from '../../audit/event.js';
import type { IdentityRecord } from '../records.js';
import type { IdentityStore, ListOptions } from '../types.js';
import type { RecordCache } from './record-cache.js';

export class CachedIdentityStore implements IdentityStore {
  constructor(private readonly inner: IdentityStore, private readonly cache: RecordCache) {}

  get(id: string): Promise<IdentityRecord | null> {
    return this.cache.read('identity', id, () => this.inner.get(id));
  }

  findByExternalId(workspaceId: string, externalId: string): Promise<IdentityRecord | null> {
    return this.inner.findByExternalId(workspaceId, externalId);
  }

  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<IdentityRecord[]> {
    return this.inner.list(workspaceId, options);
  }

  // Nothing to evict: the cache is read by id, and a new identity's id was never read.
  insert(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    return this.inner.insert(record, event);
  }

  getOrCreate(workspaceId: string, externalId: string, create: () => IdentityRecord): Promise<IdentityRecord> {
    return this.inner.getOrCreate(workspaceId, externalId, create);
  }

  async update(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    await this.inner.update(record, event);
    await this.cache.changed('identity', record.id);
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.delete(id, event);
    await this.cache.changed('identity', id);
    return done;
  }
}
