/** Rate-limit overrides, matched on every ratelimit.limit, through the record cache. */
import type { AuditEvent } from '../../audit/event.js';
import type { RatelimitOverrideRecord } from '../records.js';
import type { ListOptions, OverrideStore, OverrideValues } from '../types.js';
import { scopedKey, type RecordCache } from './record-cache.js';

export class CachedOverrideStore implements OverrideStore {
  constructor(private readonly inner: OverrideStore, private readonly cache: RecordCache) {}

  findExact(namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null> {
    return this.cache.read('override', scopedKey(namespaceId, 'exact', identifier), () => this.inner.findExact(namespaceId, identifier));
  }

  wildcards(namespaceId: string): Promise<RatelimitOverrideRecord[]> {
    return this.cache.read('override', scopedKey(namespaceId, 'wildcards'), () => this.inner.wildcards(namespaceId));
  }

  get(id: string): Promise<RatelimitOverrideRecord | null> {
    return this.inner.get(id);
  }

  list(namespaceId: string, options: ListOptions): Promise<RatelimitOverrideRecord[]> {
    return this.inner.list(namespaceId, options);
  }

  async set(values: OverrideValues, atMs: number, newId: string, event?: AuditEvent): Promise<RatelimitOverrideRecord> {
    const record = await this.inner.set(values, atMs, newId, event);
    await this.cache.changed('override');
    return record;
  }

  async delete(namespaceId: string, identifier: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.delete(namespaceId, identifier, atMs, event);
    await this.cache.changed('override');
    return done;
  }
}
