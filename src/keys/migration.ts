/**
 * Keys imported from another system (keys.migrateKeys) and how they verify. The caller's hashes
 * are stored as they can be looked up: `sha256` keys under keygate's own hash (so they verify like
 * any key), prefixed-api-key keys under the hex SHA-256 of their long token until their first
 * verification names the migration and they are rehashed (shared/spec §7.1.9, §7.2.5).
 */
import { hash as digest } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import type { MigrationAlgorithm } from '../storage/records.js';

export const MIGRATION_ALGORITHMS: readonly MigrationAlgorithm[] = ['sha256', 'github.com/seamapi/prefixed-api-key'];

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/** The hash to store for an imported key, or null when `hash` is not a hash of this algorithm. */
export function storedHash(algorithm: MigrationAlgorithm, hash: string): string | null {
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
export function pendingLookupHash(algorithm: MigrationAlgorithm, plaintext: string): string | null {
  if (algorithm === 'sha256') return null;
  return digest('sha256', prefixedParts(plaintext).long, 'hex');
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
