/**
 * Keys imported from another system (keys.migrateKeys) and how they verify. The caller's hashes
 * are stored as they can be looked up: `sha256` keys under keygate's own hash (so they verify like
 * any key), prefixed-api-key keys under the hex SHA-256 of their long token, slow-hash keys
 * (migration-slow.ts) under a SHA-256 of their migration and lookup token, until their first
 * verification names the migration and they are rehashed to keygate's own storage hash.
 */
import { hash as digest } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import type { MigrationAlgorithm, MigrationRecord } from '../storage/records.js';
import { isSlowAlgorithm, parseSlowImport, SLOW_ALGORITHMS } from './migration-slow.js';

export const MIGRATION_ALGORITHMS: readonly MigrationAlgorithm[] = ['sha256', 'github.com/seamapi/prefixed-api-key', ...SLOW_ALGORITHMS];

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** What an imported key is stored under; `slowHash` is kept until its first verification checks it. */
export interface ImportedHash { readonly hash: string; readonly slowHash?: string }

/** How to store a key imported with `given` as its hash, or null when that is not of the migration's algorithm. */
export function importedHash(migration: Pick<MigrationRecord, 'id' | 'algorithm'>, given: string): ImportedHash | null {
  if (isSlowAlgorithm(migration.algorithm)) {
    const parsed = parseSlowImport(migration.algorithm, given);
    return parsed && { hash: slowLookupHash(migration.id, parsed.lookup), slowHash: parsed.encoded };
  }
  const hash = storedHash(migration.algorithm, given);
  return hash === null ? null : { hash };
}

/**
 * Where a slow-hash key waits: hex SHA-256 of `<migration id>:<lookup>`. The migration id keeps
 * equal lookup tokens of two migrations apart; hex never equals keygate's base64 hashes.
 */
function slowLookupHash(migrationId: string, lookup: string): string {
  return digest('sha256', `${migrationId}:${lookup}`, 'hex');
}

function storedHash(algorithm: MigrationAlgorithm, hash: string): string | null {
  if (algorithm === 'sha256') {
    if (BASE64_SHA256.test(hash)) return hash;
    // Hex is how most systems keep SHA-256; converted, the key verifies without a migrationId.
    return HEX_SHA256.test(hash) ? Buffer.from(hash, 'hex').toString('base64') : null;
  }
  return HEX_SHA256.test(hash) ? hash.toLowerCase() : null;
}

interface PrefixedParts { readonly prefix: string; readonly short: string; readonly long: string }

/** `<prefix>_<short token>_<long token>`; the prefix may itself contain underscores. */
function prefixedParts(plaintext: string): PrefixedParts {
  const parts = plaintext.split('_');
  if (parts.length < 3) throw new ApiError('err:unkey:authentication:malformed', 'Invalid key format.');
  return { prefix: parts.slice(0, -2).join('_'), short: parts.at(-2)!, long: parts.at(-1)! };
}

/**
 * The hash a not-yet-rehashed key of this migration was stored under, or null when the ordinary
 * lookup already covers the algorithm. Throws 400 for a key that cannot be of this migration.
 */
export function pendingLookupHash(migration: Pick<MigrationRecord, 'id' | 'algorithm'>, plaintext: string): string | null {
  if (migration.algorithm === 'sha256') return null;
  const parts = prefixedParts(plaintext);
  return isSlowAlgorithm(migration.algorithm) ? slowLookupHash(migration.id, parts.short) : digest('sha256', parts.long, 'hex');
}

/** What a slow hash covers: the key's last `_` segment (its secret), not the whole key. */
export function slowHashedSecret(plaintext: string): string {
  return prefixedParts(plaintext).long;
}

/** The display `start` of a migrated key, set at its first verification. */
export function migratedStart(algorithm: MigrationAlgorithm, plaintext: string): string {
  if (algorithm !== 'sha256') {
    const { prefix, short, long } = prefixedParts(plaintext);
    return `${prefix}_${`${short}_${long}`.slice(0, 4)}`;
  }
  // Foreign keys have no known layout: take the last `_` as the prefix separator, as most do.
  const cut = plaintext.lastIndexOf('_');
  return cut < 0 ? plaintext.slice(0, 4) : `${plaintext.slice(0, cut)}_${plaintext.slice(cut + 1, cut + 5)}`;
}
