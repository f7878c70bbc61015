/**
 * verifyKey's side of key migrations: finding a key that still waits under its source system's
 * hash, and completing its migration at its first verification (keygate's hash and `start`).
 */
import type { Principal } from '../auth/permissions.js';
import type { KeyRecord } from '../storage/records.js';
import { DuplicateError } from '../storage/types.js';
import type { MigrationDeps } from './deps.js';
import { hashKey } from './format.js';
import { migratedStart, pendingLookupHash, slowHashedSecret } from './migration.js';
import { isSlowAlgorithm } from './migration-slow.js';

/**
 * The key imported under `migrationId` that `plaintext` belongs to (still waiting for its
 * rehash, or rehashed a moment ago by a concurrent verification), or null. Throws 400 when the
 * plaintext cannot be a key of that migration's format.
 */
export async function findPendingMigrated(services: MigrationDeps, principal: Principal, plaintext: string, migrationId: string): Promise<KeyRecord | null> {
  const { storage } = services;
  const migration = await storage.migrations.get(migrationId);
  if (!migration || migration.workspaceId !== principal.workspaceId) return null;
  const lookup = pendingLookupHash(migration, plaintext);
  if (lookup === null) return null;
  const key = await storage.keys.findByHash(lookup);
  if (key && key.pendingMigrationId === migrationId) return key;
  // A concurrent first verification may have rehashed the key between the caller's lookup by
  // keygate's hash and this one: the key is then found under keygate's hash.
  return storage.keys.findByHash(hashKey(plaintext));
}

/**
 * Ends a migrated key's migration once its owner presented it: stores keygate's own hash (so no
 * `migrationId` is needed any more) and the display `start`. Runs once per key; a concurrent
 * verification that got there first makes this a no-op. Resolves the key as it now stands, or
 * null when the plaintext's secret does not match the key's slow hash (the lookup token alone
 * found it): the caller then answers as for an unknown key, and nothing is rewritten.
 */
export async function completeMigration(services: MigrationDeps, key: KeyRecord, plaintext: string): Promise<KeyRecord | null> {
  const pending = key.pendingMigrationId;
  const migration = pending === undefined ? null : await services.storage.migrations.get(pending);
  // A slow-hash key is never valid unchecked, not even if its migration record went missing.
  if (!migration) return key.pendingMigrationHash === undefined ? key : null;
  if (isSlowAlgorithm(migration.algorithm)) {
    const encoded = key.pendingMigrationHash;
    if (encoded === undefined) return null;
    // Tens of milliseconds of CPU: on a worker thread, off the event loop (src/workers/pool.ts).
    const task = { algorithm: migration.algorithm, encoded, secret: slowHashedSecret(plaintext) };
    if (!await services.hashPool.verifySecret(task)) return null;
  }
  const hash = hashKey(plaintext);
  const start = migratedStart(migration.algorithm, plaintext);
  try {
    const stored = await services.storage.keys.modify(key.id, (current) => {
      if (current.pendingMigrationId !== pending) return null;
      const { pendingMigrationId: _done, pendingMigrationHash: _checked, ...rest } = current;
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
