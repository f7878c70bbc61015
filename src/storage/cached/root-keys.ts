/** Root keys, found by hash on every authenticated request, read through the record cache. */
import type { AuditEvent } from '../../audit/event.js';
import type { RootKeyRecord } from '../records.js';
import type { RootKeyStore } from '../types.js';
import type { RecordCache } from './record-cache.js';

export class CachedRootKeyStore implements RootKeyStore {
  constructor(private readonly inner: RootKeyStore, private readonly cache: RecordCache) {}

  findByHash(hash: string): Promise<RootKeyRecord | null> {
    return this.cache.read('rootKey', hash, () => this.inner.findByHash(hash));
  }

  get(id: string): Promise<RootKeyRecord | null> {
    return this.inner.get(id);
  }

  list(): Promise<RootKeyRecord[]> {
    return this.inner.list();
  }

  async put(record: RootKeyRecord, event?: AuditEvent): Promise<void> {
    await this.inner.put(record, event);
    await this.cache.changed('rootKey');
  }

  async revoke(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.revoke(id, atMs, event);
    await this.cache.changed('rootKey');
    return done;
  }

  async remove(id: string, event?: AuditEvent): Promise<void> {
    await this.inner.remove(id, event);
    await this.cache.changed('rootKey');
  }
}
