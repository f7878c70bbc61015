import type { CreditsRecord, KeyRecord } from '../records.js';
import { DuplicateError, type KeyStore } from '../types.js';
import type { LmdbTables } from './open.js';

export class LmdbKeyStore implements KeyStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: KeyRecord, credits: CreditsRecord | null): Promise<void> {
    await this.t.root.transaction(() => {
      if (this.t.keyByHash.get(record.hash) !== undefined) throw new DuplicateError('hash');
      if (this.t.keys.get(record.id) !== undefined) throw new DuplicateError('id');
      this.t.keys.put(record.id, record);
      this.t.keyByHash.put(record.hash, record.id);
      if (credits) this.t.credits.put(record.id, credits);
    });
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const id = this.t.keyByHash.get(hash);
    return id === undefined ? null : ((this.t.keys.get(id) as KeyRecord | undefined) ?? null);
  }

  async get(id: string): Promise<KeyRecord | null> {
    return (this.t.keys.get(id) as KeyRecord | undefined) ?? null;
  }

  async getCredits(keyId: string): Promise<CreditsRecord | null> {
    return (this.t.credits.get(keyId) as CreditsRecord | undefined) ?? null;
  }

  async spendCredits(keyId: string, cost: number): Promise<{ passed: boolean; remaining: number | null }> {
    // The read and the write run inside one write transaction, so concurrent spends serialize.
    return this.t.root.transaction(() => {
      const credits = this.t.credits.get(keyId) as CreditsRecord | undefined;
      if (!credits) return { passed: true, remaining: null };
      if (cost > 0 && credits.remaining < cost) return { passed: false, remaining: credits.remaining };
      if (cost === 0) return { passed: true, remaining: credits.remaining };
      const remaining = credits.remaining - cost;
      this.t.credits.put(keyId, { ...credits, remaining });
      return { passed: true, remaining };
    });
  }
}
