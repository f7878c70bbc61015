import type { IdentityRecord } from '../records.js';
import { DuplicateError, type IdentityStore } from '../types.js';
import { scoped, type LmdbTables } from './open.js';

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
    const existing = await this.findByExternalId(workspaceId, externalId);
    if (existing) return existing;
    const indexKey = scoped(workspaceId, externalId);
    return this.t.root.transaction(() => {
      // Re-read inside the write transaction: another request may have created it meanwhile.
      const id = this.t.identityByExternalId.get(indexKey);
      if (id !== undefined) return this.t.identities.get(id) as IdentityRecord;
      const record = create();
      this.t.identities.put(record.id, record);
      this.t.identityByExternalId.put(indexKey, record.id);
      return record;
    });
  }
}
