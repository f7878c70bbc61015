/**
 * Keys, found by hash on every verification, through the record cache. A write evicts every hash
 * the key had before and has after, here and on every replica.
 */
import type { AuditEvent } from '../../audit/event.js';
import type { CreditsRecord, CreditsRefill, KeyRecord } from '../records.js';
import type { AttachOutcome, Attaching, IfDeleted, InsertOutcome, KeyStore, ListOptions, NewKey } from '../types.js';
import type { RecordCache } from './record-cache.js';

export class CachedKeyStore implements KeyStore {
  constructor(private readonly inner: KeyStore, private readonly cache: RecordCache) {}

  findByHash(hash: string): Promise<KeyRecord | null> {
    return this.cache.read('key', hash, () => this.inner.findByHash(hash));
  }

  get(id: string): Promise<KeyRecord | null> {
    return this.inner.get(id);
  }

  listByApi(apiId: string, options: ListOptions & { identityId?: string }): Promise<KeyRecord[]> {
    return this.inner.listByApi(apiId, options);
  }

  getCredits(keyId: string): Promise<CreditsRecord | null> {
    return this.inner.getCredits(keyId);
  }

  // Credits are not cached; hasCredits, on the cached record, changes only when credits are set or removed.
  spendCredits(keyId: string, cost: number): Promise<{ passed: boolean; remaining: number | null }> {
    return this.inner.spendCredits(keyId, cost);
  }

  adjustCredits(keyId: string, delta: number, event?: AuditEvent): Promise<CreditsRecord | null> {
    return this.inner.adjustCredits(keyId, delta, event);
  }

  // A new hash may be cached as "no such key" by a replica that saw it verified before.
  insert(record: KeyRecord, credits: CreditsRecord | null): Promise<void> {
    return this.changing([record.hash], () => this.inner.insert(record, credits));
  }

  insertAttaching(keys: readonly NewKey[], ifDeleted: IfDeleted): Promise<InsertOutcome[]> {
    return this.changing(keys.map((k) => k.record.hash), () => this.inner.insertAttaching(keys, ifDeleted));
  }

  async update(record: KeyRecord): Promise<void> {
    return this.changing([...await this.hashOf(record.id), record.hash], () => this.inner.update(record));
  }

  modify(id: string, change: (current: KeyRecord) => KeyRecord | null): Promise<KeyRecord | null> {
    const before: string[] = [];
    const tracked = (current: KeyRecord): KeyRecord | null => { before.push(current.hash); return change(current); };
    return this.changing(before, () => this.inner.modify(id, tracked), (after) => (after ? [after.hash] : []));
  }

  modifyAttaching(id: string, attaching: Attaching, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent): Promise<AttachOutcome> {
    const before: string[] = [];
    const tracked = (current: KeyRecord): KeyRecord | null => { before.push(current.hash); return change(current); };
    return this.changing(before, () => this.inner.modifyAttaching(id, attaching, tracked, event), (outcome) => (outcome.kind === 'changed' ? [outcome.key.hash] : []));
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    return this.changing(await this.hashOf(id), () => this.inner.delete(id, event));
  }

  // hasCredits lives on the key record, which verification reads from the cache.
  async setCredits(keyId: string, credits: CreditsRecord | null, event?: AuditEvent): Promise<boolean> {
    return this.changing(await this.hashOf(keyId), () => this.inner.setCredits(keyId, credits, event));
  }

  async patchCredits(keyId: string, patch: { remaining?: number; refill?: CreditsRefill | null }, event?: AuditEvent): Promise<CreditsRecord | null> {
    return this.changing(await this.hashOf(keyId), () => this.inner.patchCredits(keyId, patch, event));
  }

  /** Runs a key-record write, then evicts every hash the key had before and has after. */
  private async changing<R>(hashesBefore: readonly string[], write: () => Promise<R>, hashesAfter: (result: R) => readonly string[] = () => []): Promise<R> {
    let result: R;
    try {
      result = await write();
    } catch (err) {
      // A write that failed may still have happened (its replicas did not answer in time, or
      // Redis timed out after applying it): what it may have changed is not served from memory.
      await this.evict(hashesBefore);
      throw err;
    }
    await this.evict([...hashesBefore, ...hashesAfter(result)]);
    return result;
  }

  private async evict(hashes: readonly string[]): Promise<void> {
    await Promise.all([...new Set(hashes)].map((hash) => this.cache.changed('key', hash)));
  }

  private async hashOf(keyId: string): Promise<string[]> {
    const key = await this.inner.get(keyId);
    return key ? [key.hash] : [];
  }
}
