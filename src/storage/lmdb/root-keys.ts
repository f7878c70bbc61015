import type { RootKeyRecord } from '../records.js';
import type { RootKeyStore } from '../types.js';
import type { LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { noteChange } from './changes.js';

export class LmdbRootKeyStore implements RootKeyStore {
  constructor(private readonly t: LmdbTables) {}

  async put(record: RootKeyRecord, event?: AuditEvent): Promise<void> {
    await this.t.root.transaction(() => {
      noteAudit(this.t.audit, event);
      const previous = this.t.rootKeys.get(record.id) as RootKeyRecord | undefined;
      if (previous && previous.hash !== record.hash) this.t.rootKeyByHash.remove(previous.hash);
      this.t.rootKeys.put(record.id, record);
      this.t.rootKeyByHash.put(record.hash, record.id);
      noteChange(this.t.changes, { kind: 'rootKeys' });
    });
  }

  async findByHash(hash: string): Promise<RootKeyRecord | null> {
    const id = this.t.rootKeyByHash.get(hash);
    return id === undefined ? null : ((this.t.rootKeys.get(id) as RootKeyRecord | undefined) ?? null);
  }

  async get(id: string): Promise<RootKeyRecord | null> {
    return (this.t.rootKeys.get(id) as RootKeyRecord | undefined) ?? null;
  }

  async list(): Promise<RootKeyRecord[]> {
    const all: RootKeyRecord[] = [];
    for (const { value } of this.t.rootKeys.getRange()) all.push(value as RootKeyRecord);
    return all.sort((a, b) => a.createdAt - b.createdAt);
  }

  async revoke(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.rootKeys.get(id) as RootKeyRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      if (record.revokedAt === undefined) this.t.rootKeys.put(id, { ...record, revokedAt: atMs });
      noteChange(this.t.changes, { kind: 'rootKeys' });
      return true;
    });
  }

  async remove(id: string, event?: AuditEvent): Promise<void> {
    await this.t.root.transaction(() => {
      const record = this.t.rootKeys.get(id) as RootKeyRecord | undefined;
      if (!record) return;
      noteAudit(this.t.audit, event);
      this.t.rootKeyByHash.remove(record.hash);
      this.t.rootKeys.remove(id);
      noteChange(this.t.changes, { kind: 'rootKeys' });
    });
  }
}
