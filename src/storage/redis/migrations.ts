/**
 * Migrations in Redis: one record hash per migration and a sorted set of all ids (migrations are
 * few, list() reads them all). The id joins the set before the record is written (a crash leaves
 * an id without a record, which list() skips).
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { MigrationRecord } from '../records.js';
import { DuplicateError, type MigrationStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import type { RecordIo } from './record-io.js';

export class RedisMigrationStore implements MigrationStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly io: RecordIo) {}

  async insert(record: MigrationRecord, event?: AuditEvent): Promise<void> {
    await this.client.zadd(this.k.migrationIds, 0, record.id);
    if (!(await this.io.write(this.k.migration(record.id), 0, record, [], event))) throw new DuplicateError('id');
  }

  async get(id: string): Promise<MigrationRecord | null> {
    return this.io.get<MigrationRecord>(this.k.migration(id));
  }

  async list(): Promise<MigrationRecord[]> {
    const ids = await this.client.zrange(this.k.migrationIds, 0, -1);
    const records = (await this.io.getMany<MigrationRecord>(ids.map((id) => this.k.migration(id)))).filter((r) => r !== null);
    return records.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }
}
