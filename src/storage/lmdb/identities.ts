import type { IdentityRecord } from '../records.js';
import { DuplicateError, type IdentityStore, type ListOptions } from '../types.js';
import { getOrInsert, scoped, type LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { noteChange } from './changes.js';

export class LmdbIdentityStore implements IdentityStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    const indexKey = scoped(record.workspaceId, record.externalId);
    await this.t.root.transaction(() => {
      if (this.t.identityByExternalId.get(indexKey) !== undefined) throw new DuplicateError('externalId');
      noteAudit(this.t.audit, event);
      this.t.identities.put(record.id, record);
      this.t.identityByExternalId.put(indexKey, record.id);
      noteChange(this.t.changes, { kind: 'identity', id: record.id });
    });
  }

  async get(id: string): Promise<IdentityRecord | null> {
    return (this.t.identities.get(id) as IdentityRecord | undefined) ?? null;
  }

  async findByExternalId(workspaceId: string, externalId: string): Promise<IdentityRecord | null> {
    const id = this.t.identityByExternalId.get(scoped(workspaceId, externalId));
    return id === undefined ? null : this.get(id);
  }

  async getOrCreate(workspaceId: string, externalId: string, create: () => IdentityRecord): Promise<IdentityRecord> {
    return getOrInsert(this.t, this.t.identities, this.t.identityByExternalId, scoped(workspaceId, externalId), create,
      (record) => noteChange(this.t.changes, { kind: 'identity', id: record.id }));
  }

  async update(record: IdentityRecord, event?: AuditEvent): Promise<void> {
    // Only while it still exists: an update racing a delete must not bring the identity back.
    await this.t.root.transaction(() => {
      if (this.t.identities.get(record.id) === undefined) return;
      noteAudit(this.t.audit, event);
      this.t.identities.put(record.id, record);
      noteChange(this.t.changes, { kind: 'identity', id: record.id });
    });
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.identities.get(id) as IdentityRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      this.t.identityByExternalId.remove(scoped(record.workspaceId, record.externalId));
      this.t.identities.remove(id);
      noteChange(this.t.changes, { kind: 'identity', id });
      return true;
    });
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<IdentityRecord[]> {
    const needle = options.search?.trim().toLowerCase();
    const out: IdentityRecord[] = [];
    for (const { value } of this.t.identities.getRange({ start: options.cursor ?? '' })) {
      const record = value as IdentityRecord;
      if (record.workspaceId !== workspaceId) continue;
      if (needle && !record.id.toLowerCase().includes(needle) && !record.externalId.toLowerCase().includes(needle)) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }
}
