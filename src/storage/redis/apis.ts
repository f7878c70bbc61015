/** APIs in Redis: one record hash per API (`api:{<id>}:rec`); no index, no listing. */
import type { ApiRecord } from '../records.js';
import type { ApiStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import type { RecordIo } from './record-io.js';

export class RedisApiStore implements ApiStore {
  constructor(private readonly k: StorageKeys, private readonly io: RecordIo) {}

  async insert(record: ApiRecord): Promise<void> {
    // A put, as in LMDB: ids are fresh, so there is nothing to refuse.
    await this.io.write(this.k.api(record.id), '*', record);
  }

  async get(id: string): Promise<ApiRecord | null> {
    return this.io.get<ApiRecord>(this.k.api(id));
  }

  async markDeleted(id: string, atMs: number): Promise<boolean> {
    // Compare-and-set: of concurrent calls exactly one sees the API undeleted and wins.
    return this.io.update<ApiRecord, boolean>(this.k.api(id), (current) => (!current || current.record.deletedAt !== undefined
      ? { result: false }
      : { result: true, write: { ...current.record, deletedAt: atMs } }));
  }
}
