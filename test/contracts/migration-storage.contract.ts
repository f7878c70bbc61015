/**
 * Behavioural contract of MigrationStore and of how the key store treats migrated keys
 * (src/storage/types.ts). Every backend runs it; `open`/`close` as in storage.contract.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID, type KeyRecord, type MigrationRecord } from '../../src/storage/records.js';
import { DuplicateError, type Storage } from '../../src/storage/types.js';

const id = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;

function migration(overrides: Partial<MigrationRecord> = {}): MigrationRecord {
  return { id: id('mig'), workspaceId: WORKSPACE_ID, algorithm: 'sha256', createdAt: 1_000, ...overrides };
}

export function describeMigrationStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void = (storage) => storage.close(),
): void {
  describe(`MigrationStore contract: ${impl}`, () => {
    let storage: Storage;
    beforeEach(async () => { storage = await open(); });
    afterEach(async () => { await close(storage); });

    it('insert, then get returns the record; unknown ids are null', async () => {
      const m = migration({ name: 'from-legacy', algorithm: 'github.com/seamapi/prefixed-api-key' });
      await storage.migrations.insert(m);
      expect(await storage.migrations.get(m.id)).toEqual(m);
      expect(await storage.migrations.get('mig_unknown')).toBeNull();
    });

    it('insert refuses a taken id and keeps the first record', async () => {
      const m = migration();
      await storage.migrations.insert(m);
      await expect(storage.migrations.insert({ ...m, algorithm: 'github.com/seamapi/prefixed-api-key' })).rejects.toBeInstanceOf(DuplicateError);
      expect(await storage.migrations.get(m.id)).toEqual(m);
    });

    it('list returns every migration, oldest first', async () => {
      const late = migration({ createdAt: 3_000 });
      const early = migration({ createdAt: 2_000 });
      await storage.migrations.insert(late);
      await storage.migrations.insert(early);
      expect((await storage.migrations.list()).map((m) => m.id)).toEqual([early.id, late.id]);
    });

    it('a migrated key keeps pendingMigrationId until modify clears it with the new hash', async () => {
      const key: KeyRecord = {
        id: id('key'), workspaceId: WORKSPACE_ID, apiId: 'api_1', keyspaceId: 'ks_1', hash: randomBytes(32).toString('hex'),
        start: '', enabled: true, hasCredits: false, ratelimits: [], permissions: [], roles: [], createdAt: 1_000, pendingMigrationId: 'mig_1',
      };
      await storage.keys.insert(key, null);
      expect((await storage.keys.findByHash(key.hash))!.pendingMigrationId).toBe('mig_1');
      const rehashed = randomBytes(32).toString('base64');
      await storage.keys.modify(key.id, ({ pendingMigrationId: _done, ...rest }) => ({ ...rest, hash: rehashed, start: 'acme_abcd' }));
      expect(await storage.keys.findByHash(key.hash)).toBeNull();
      const after = await storage.keys.findByHash(rehashed);
      expect(after).toMatchObject({ id: key.id, start: 'acme_abcd' });
      expect(after!.pendingMigrationId).toBeUndefined();
    });
  });
}
