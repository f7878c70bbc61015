import type { CreditsRecord, CreditsRefill, KeyRecord } from '../records.js';
import { attachesNothing, goneOf, outcomesOf, withoutAttached } from '../attaching.js';
import {
  DuplicateError, type AttachOutcome, type Attaching, type IfDeleted, type InsertOutcome, type KeyStore, type ListOptions, type NewKey,
} from '../types.js';
import type { LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { refilled } from '../refill.js';
import { noteChange } from './changes.js';

/**
 * `<apiId>/<keyId>`: a printable separator, because lmdb-js encodes long keys that contain control
 * characters differently, which breaks range scans from a long cursor. Ids never contain '/'.
 */
const byApi = (apiId: string, keyId: string): string => `${apiId}/${keyId}`;

export class LmdbKeyStore implements KeyStore {
  /** `now`: the clock refills are decided by (injectable for tests). */
  constructor(private readonly t: LmdbTables, private readonly now: () => number = Date.now) {}

  /** The stored counter with any due refill applied (not written). */
  private currentCredits(keyId: string): CreditsRecord | undefined {
    const stored = this.t.credits.get(keyId) as CreditsRecord | undefined;
    return stored && refilled(stored, this.now());
  }

  async insert(record: KeyRecord, credits: CreditsRecord | null): Promise<void> {
    await this.t.root.transaction(() => this.insertInTransaction(record, credits));
  }

  async insertAttaching(keys: readonly NewKey[], ifDeleted: IfDeleted): Promise<InsertOutcome[]> {
    return outcomesOf(await Promise.allSettled(keys.map(({ record, credits, attaching, event }) => this.t.root.transaction((): InsertOutcome => {
      // In the insert's transaction: a permission or role delete commits wholly before or after it.
      const deleted = this.deletedOf(attaching);
      if (!attachesNothing(deleted) && ifDeleted === 'refuse') return { kind: 'deleted', deleted };
      this.insertInTransaction(withoutAttached(record, deleted) ?? record, credits);
      noteAudit(this.t.audit, event);
      return { kind: 'inserted', omitted: deleted };
    }))));
  }

  /** insert's body; runs inside a write transaction. */
  private insertInTransaction(record: KeyRecord, credits: CreditsRecord | null): void {
    if (this.t.keyByHash.get(record.hash) !== undefined) throw new DuplicateError('hash');
    if (this.t.keys.get(record.id) !== undefined) throw new DuplicateError('id');
    this.t.keys.put(record.id, { ...record, hasCredits: credits !== null });
    this.t.keyByHash.put(record.hash, record.id);
    this.t.keyByApi.put(byApi(record.apiId, record.id), record.id);
    if (credits) this.t.credits.put(record.id, credits);
    noteChange(this.t.changes, { kind: 'key', id: record.id, hashes: [record.hash] });
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const id = this.t.keyByHash.get(hash);
    return id === undefined ? null : ((this.t.keys.get(id) as KeyRecord | undefined) ?? null);
  }

  async get(id: string): Promise<KeyRecord | null> {
    return (this.t.keys.get(id) as KeyRecord | undefined) ?? null;
  }

  async getCredits(keyId: string): Promise<CreditsRecord | null> {
    return this.currentCredits(keyId) ?? null;
  }

  async spendCredits(keyId: string, cost: number): Promise<{ passed: boolean; remaining: number | null }> {
    // The read and the write run inside one write transaction, so concurrent spends serialize.
    return this.t.root.transaction(() => {
      const stored = this.t.credits.get(keyId) as CreditsRecord | undefined;
      if (!stored) return { passed: true, remaining: null };
      const credits = refilled(stored, this.now());
      // A due refill is written even when the spend is refused, so it happens exactly once.
      if (credits !== stored) this.t.credits.put(keyId, credits);
      if (cost > 0 && credits.remaining < cost) return { passed: false, remaining: credits.remaining };
      if (cost === 0) return { passed: true, remaining: credits.remaining };
      const remaining = credits.remaining - cost;
      this.t.credits.put(keyId, { ...credits, remaining });
      return { passed: true, remaining };
    });
  }

  async update(record: KeyRecord): Promise<void> {
    await this.modify(record.id, () => record);
  }

  async modify(id: string, change: (current: KeyRecord) => KeyRecord | null): Promise<KeyRecord | null> {
    return this.t.root.transaction(() => this.modifyInTransaction(id, change));
  }

  async modifyAttaching(id: string, attaching: Attaching, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent): Promise<AttachOutcome> {
    return this.t.root.transaction((): AttachOutcome => {
      // In the write transaction: a permission or role delete commits wholly before or after it.
      const deleted = this.deletedOf(attaching);
      if (!attachesNothing(deleted)) return { kind: 'deleted', deleted };
      const key = this.modifyInTransaction(id, change);
      if (key) noteAudit(this.t.audit, event);
      return key ? { kind: 'changed', key } : { kind: 'unknownKey' };
    });
  }

  /** Those of `attaching` whose record is gone; run inside the write transaction that depends on it. */
  private deletedOf(attaching: Attaching): Attaching {
    return goneOf(attaching, { permission: (p) => this.t.permissions.get(p.id) === undefined, role: (r) => this.t.roles.get(r.id) === undefined });
  }

  /** modify's body; runs inside a write transaction. */
  private modifyInTransaction(id: string, change: (current: KeyRecord) => KeyRecord | null): KeyRecord | null {
    const previous = this.t.keys.get(id) as KeyRecord | undefined;
    if (!previous) return null;
    const record = change(previous);
    if (!record) return previous;
    if (previous.hash !== record.hash) {
      if (this.t.keyByHash.get(record.hash) !== undefined) throw new DuplicateError('hash');
      this.t.keyByHash.remove(previous.hash);
      this.t.keyByHash.put(record.hash, id);
    }
    // hasCredits belongs to the credits counter; a record change never changes it.
    const stored = { ...record, id, hasCredits: previous.hasCredits };
    this.t.keys.put(id, stored);
    noteChange(this.t.changes, { kind: 'key', id, hashes: previous.hash === record.hash ? [record.hash] : [previous.hash, record.hash] });
    return stored;
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.keys.get(id) as KeyRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      this.t.keyByHash.remove(record.hash);
      this.t.keyByApi.remove(byApi(record.apiId, id));
      this.t.credits.remove(id);
      this.t.keys.remove(id);
      noteChange(this.t.changes, { kind: 'key', id, hashes: [record.hash] });
      return true;
    });
  }

  async listByApi(apiId: string, options: ListOptions & { identityId?: string }): Promise<KeyRecord[]> {
    const start = byApi(apiId, options.cursor ?? '');
    const out: KeyRecord[] = [];
    // '0' is the character after '/': the range covers exactly this API's entries.
    for (const { value: id } of this.t.keyByApi.getRange({ start, end: `${apiId}0` })) {
      const record = this.t.keys.get(id) as KeyRecord | undefined;
      if (!record || (options.identityId !== undefined && record.identityId !== options.identityId)) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }

  async setCredits(keyId: string, credits: CreditsRecord | null, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.keys.get(keyId) as KeyRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      if (credits) this.t.credits.put(keyId, credits);
      else this.t.credits.remove(keyId);
      if (record.hasCredits !== (credits !== null)) {
        this.t.keys.put(keyId, { ...record, hasCredits: credits !== null });
        noteChange(this.t.changes, { kind: 'key', id: keyId, hashes: [record.hash] });
      }
      return true;
    });
  }

  async adjustCredits(keyId: string, delta: number, event?: AuditEvent): Promise<CreditsRecord | null> {
    return this.t.root.transaction(() => {
      const credits = this.currentCredits(keyId);
      if (!credits) return null;
      noteAudit(this.t.audit, event);
      const next = { ...credits, remaining: Math.max(0, Math.min(Number.MAX_SAFE_INTEGER, credits.remaining + delta)) };
      this.t.credits.put(keyId, next);
      return next;
    });
  }

  async patchCredits(keyId: string, patch: { remaining?: number; refill?: CreditsRefill | null }, event?: AuditEvent): Promise<CreditsRecord | null> {
    return this.t.root.transaction(() => {
      const record = this.t.keys.get(keyId) as KeyRecord | undefined;
      if (!record) return null;
      // A refill due under the old settings happened before this change.
      const current = this.currentCredits(keyId);
      const remaining = patch.remaining ?? current?.remaining;
      if (remaining === undefined) return null;
      noteAudit(this.t.audit, event);
      const refill = patch.refill === undefined ? current?.refill : patch.refill ?? undefined;
      // A new refill setting starts its schedule now; an unchanged one keeps its last refill.
      const lastRefillAt = patch.refill ? this.now() : current?.lastRefillAt;
      const next: CreditsRecord = {
        remaining,
        ...(refill ? { refill } : {}),
        ...(refill && lastRefillAt !== undefined ? { lastRefillAt } : {}),
      };
      this.t.credits.put(keyId, next);
      if (!record.hasCredits) {
        this.t.keys.put(keyId, { ...record, hasCredits: true });
        noteChange(this.t.changes, { kind: 'key', id: keyId, hashes: [record.hash] });
      }
      return next;
    });
  }
}
