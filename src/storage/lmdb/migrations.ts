import type { MigrationRecord } from '../records.js';
import { DuplicateError, type MigrationStore } from '../types.js';
import type { LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';

export class LmdbMigrationStore implements MigrationStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: MigrationRecord, event?: AuditEvent): Promise<void> {
    await this.t.root.transaction(() => {
      if (this.t.migrations.get(record.id) !== undefined) throw new DuplicateError('id');
      noteAudit(this.t.audit, event);
      this.t.migrations.put(record.id, record);
    });
  }

  async get(id: string): Promise<MigrationRecord | null> {
    return (this.t.migrations.get(id) as MigrationRecord | undefined) ?? null;
  }

  async list(): Promise<MigrationRecord[]> {
    const all: MigrationRecord[] = [];
    for (const { value } of this.t.migrations.getRange()) all.push(value as MigrationRecord);
    return all.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }
}
