import type { IdentityRecord } from '../records.js';
import { DuplicateError, type IdentityStore } from '../types.js';
import { getOrInsert, scoped, type LmdbTables } from './open.js';

export class LmdbIdentityStore implements IdentityStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: IdentityRecord): Promise<void> {
    const indexKey = scoped(record.workspaceId, record.externalId);
    await this.t.root.transaction(() => {
      if (this.t.identityByExternalId.get(indexKey) !== undefined) throw new DuplicateError('externalId');
      this.t.identities.put(record.id, record);
      this.t.identityByExternalId.put(indexKey, record.id);
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
    return getOrInsert(this.t, this.t.identities, this.t.identityByExternalId, scoped(workspaceId, externalId), create);
  }
}
