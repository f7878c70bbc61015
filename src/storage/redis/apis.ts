/**
 * APIs in Redis: one record hash per API (`api:{<id>}:rec`), and the workspace listing
 * `api-ws:{<ws>}:ids` of live APIs. insert lists the id, then writes the record (commit);
 * markDeleted marks the record (commit), then unlists it. A listed id whose record is missing or
 * deleted reads as absent (open.ts).
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { ApiRecord } from '../records.js';
import type { ApiStore, ListOptions } from '../types.js';
import type { StorageKeys } from './keys.js';
import { listIds } from './listing.js';
import type { RecordIo } from './record-io.js';

export class RedisApiStore implements ApiStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly io: RecordIo) {}

  async insert(record: ApiRecord, event?: AuditEvent): Promise<void> {
    if (record.deletedAt === undefined) await this.client.zadd(this.k.apisOf(record.workspaceId), 0, record.id);
    // A put, as in LMDB: ids are fresh, so there is nothing to refuse.
    await this.io.write(this.k.api(record.id), '*', record, [], event);
  }

  async get(id: string): Promise<ApiRecord | null> {
    return this.io.get<ApiRecord>(this.k.api(id));
  }

  async markDeleted(id: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    // Compare-and-set: of concurrent calls exactly one sees the API undeleted and wins.
    const deleted = await this.io.update<ApiRecord, ApiRecord | null>(this.k.api(id), (current) => (!current || current.record.deletedAt !== undefined
      ? { result: null }
      : { result: current.record, write: { ...current.record, deletedAt: atMs } }), event);
    if (!deleted) return false;
    await this.client.zrem(this.k.apisOf(deleted.workspaceId), id);
    return true;
  }

  async list(workspaceId: string, options: ListOptions): Promise<ApiRecord[]> {
    return listIds(this.client, this.k.apisOf(workspaceId), options,
      (ids) => this.io.getMany<ApiRecord>(ids.map((id) => this.k.api(id))),
      (r) => r.workspaceId === workspaceId && r.deletedAt === undefined);
  }
}
