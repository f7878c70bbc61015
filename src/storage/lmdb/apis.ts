import type { ApiRecord } from '../records.js';
import type { ApiStore, ListOptions } from '../types.js';
import type { LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { noteChange } from './changes.js';

export class LmdbApiStore implements ApiStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: ApiRecord, event?: AuditEvent): Promise<void> {
    await this.t.root.transaction(() => {
      this.t.apis.put(record.id, record);
      noteAudit(this.t.audit, event);
      noteChange(this.t.changes, { kind: 'api', id: record.id });
    });
  }

  async get(id: string): Promise<ApiRecord | null> {
    return (this.t.apis.get(id) as ApiRecord | undefined) ?? null;
  }

  async markDeleted(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.apis.get(id) as ApiRecord | undefined;
      if (!record || record.deletedAt !== undefined) return false;
      this.t.apis.put(id, { ...record, deletedAt: atMs });
      noteAudit(this.t.audit, event);
      noteChange(this.t.changes, { kind: 'api', id });
      return true;
    });
  }

  async list(workspaceId: string, options: ListOptions): Promise<ApiRecord[]> {
    const out: ApiRecord[] = [];
    if (options.limit <= 0) return out;
    for (const { value } of this.t.apis.getRange({ start: options.cursor ?? '' })) {
      const record = value as ApiRecord;
      if (record.workspaceId !== workspaceId || record.deletedAt !== undefined) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }
}
