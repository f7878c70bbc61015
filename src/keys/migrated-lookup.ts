/**
 * verifyKey's side of key migrations: finding a key that still waits under its source system's
 * hash, and completing its migration at its first verification (keygate's hash and `start`).
 */
import type { Principal } from '../auth/permissions.js';
import type { Services } from '../services.js';
import type { KeyRecord } from '../storage/records.js';
import { DuplicateError } from '../storage/types.js';
import { hashKey } from './format.js';
import { migratedStart, pendingLookupHash } from './migration.js';

/**
 * The key imported under `migrationId` that `plaintext` belongs to and that was not rehashed yet,
 * or null. Throws 400 when the plaintext cannot be a key of that migration's format.
 */
export async function findPendingMigrated(services: Services, principal: Principal, plaintext: string, migrationId: string): Promise<KeyRecord | null> {
  const { storage } = services;
  const migration = await storage.migrations.get(migrationId);
  if (!migration || migration.workspaceId !== principal.workspaceId) return null;
  const lookup = pendingLookupHash(migration.algorithm, plaintext);
  if (lookup === null) return null;
  const key = await storage.keys.findByHash(lookup);
  return key && key.pendingMigrationId === migrationId ? key : null;
}

/**
 * Ends a migrated key's migration once its owner presented it: stores keygate's own hash (so no
 * `migrationId` is needed any more) and the display `start`. Runs once per key; a concurrent
 * verification that got there first makes this a no-op. Resolves the key as it now stands.
 */
export async function completeMigration(services: Services, key: KeyRecord, plaintext: string): Promise<KeyRecord> {
  const pending = key.pendingMigrationId;
  const migration = pending === undefined ? null : await services.storage.migrations.get(pending);
  if (!migration) return key;
  const hash = hashKey(plaintext);
  const start = migratedStart(migration.algorithm, plaintext);
  try {
    const stored = await services.storage.keys.modify(key.id, (current) => {
      if (current.pendingMigrationId !== pending) return null;
      const { pendingMigrationId: _done, ...rest } = current;
      return { ...rest, hash, start };
    });
    return stored ?? key;
  } catch (err) {
    // Another key already holds this hash (it was imported twice under different schemes): keep
    // verifying this one through its migration rather than failing the request.
    if (err instanceof DuplicateError) return key;
    throw err;
  }
}
