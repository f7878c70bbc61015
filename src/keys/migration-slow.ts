/**
 * Slow-hash key migrations (bcrypt, scrypt, argon2id): the encodings keys.migrateKeys accepts.
 *
 * A slow hash is salted, so a key cannot be found by hashing what the caller presents. Such
 * migrations therefore expect keys of the prefixed layout `<prefix>_<lookup>_<secret>` (as
 * github.com/seamapi/prefixed-api-key issues them): the source system stored `<lookup>` in clear
 * and the slow hash of `<secret>` (the last `_` segment only). migrateKeys takes both in one
 * string, `<lookup>:<encoded slow hash>`; the key is stored under a SHA-256 of the migration id and
 * `<lookup>`, and verifyKey with `migrationId` finds it by that, then checks `<secret>` against the
 * slow hash in the worker pool (src/workers/).
 *
 * Shared by the main thread (validation at import) and the worker (src/workers/tasks.ts): keep
 * this module free of heavy imports.
 */
import type { MigrationAlgorithm } from '../storage/records.js';

export type SlowAlgorithm = 'bcrypt' | 'scrypt' | 'argon2id';

export const SLOW_ALGORITHMS: readonly SlowAlgorithm[] = ['bcrypt', 'scrypt', 'argon2id'];

export function isSlowAlgorithm(algorithm: MigrationAlgorithm): algorithm is SlowAlgorithm {
  return (SLOW_ALGORITHMS as readonly string[]).includes(algorithm);
}

/** What migrateKeys expects in `hash`, per algorithm (shown in its 400 detail). */
export const SLOW_HASH_FORMAT: Readonly<Record<SlowAlgorithm, string>> = {
  bcrypt: '<lookup>:$2b$<cost>$<22-character salt><31-character hash>',
  scrypt: '<lookup>:$scrypt$ln=<log2 N>,r=<r>,p=<p>$<base64 salt>$<base64 hash>',
  argon2id: '<lookup>:$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<base64 salt>$<base64 hash>',
};

/**
 * Bounds on the cost of one verification. An import may come from anyone holding create_key; a
 * hash with absurd parameters would tie up a worker for minutes or exhaust its memory, so it is
 * refused at import instead. Every common default is far inside them.
 */
export const SLOW_HASH_LIMITS = Object.freeze({
  bcryptCost: 16,
  memoryBytes: 256 * 1024 * 1024,
  argon2Passes: 32,
  parallelism: 16,
});

/** The `<lookup>` segment: what the source system kept in clear to find the key. */
const LOOKUP = /^[A-Za-z0-9.-]{1,128}$/;
const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;
// Standard base64 (RFC 4648), the PHC string format's alphabet; padding is tolerated.
const B64 = '[A-Za-z0-9+/]+={0,2}';
const SCRYPT = new RegExp(`^\\$scrypt\\$ln=(\\d{1,2}),r=(\\d{1,4}),p=(\\d{1,2})\\$(${B64})\\$(${B64})$`);
const ARGON2ID = new RegExp(`^\\$argon2id\\$v=19\\$m=(\\d{1,7}),t=(\\d{1,3}),p=(\\d{1,2})\\$(${B64})\\$(${B64})$`);

export interface ScryptParams {
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Buffer;
  readonly hash: Buffer;
  /** node:crypto's `maxmem` for these parameters (its default, 32 MiB, refuses large N·r). */
  readonly maxmem: number;
}

/** Decoded salt (at least `minSalt` bytes) and hash (16–64 bytes: shorter ones are guessable), else null. */
function saltAndHash(salt: string, hash: string, minSalt: number): { salt: Buffer; hash: Buffer } | null {
  const s = Buffer.from(salt, 'base64');
  const h = Buffer.from(hash, 'base64');
  return s.length >= minSalt && h.length >= 16 && h.length <= 64 ? { salt: s, hash: h } : null;
}

export function parseScrypt(encoded: string): ScryptParams | null {
  const m = SCRYPT.exec(encoded);
  if (!m) return null;
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const N = 2 ** ln;
  // scrypt's working memory is 128·N·r bytes, plus 128·r per lane.
  const memory = 128 * r * (N + 2 + p);
  if (ln < 1 || r < 1 || p < 1 || p > SLOW_HASH_LIMITS.parallelism || memory > SLOW_HASH_LIMITS.memoryBytes) return null;
  // scrypt sets no salt minimum (RFC 7914's own vectors use 4 bytes).
  const parts = saltAndHash(m[4]!, m[5]!, 1);
  return parts && { N, r, p, ...parts, maxmem: memory + 1024 * 1024 };
}

function isArgon2id(encoded: string): boolean {
  const m = ARGON2ID.exec(encoded);
  if (!m) return false;
  const [kib, t, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Argon2 needs at least 8 KiB per lane.
  if (p < 1 || p > SLOW_HASH_LIMITS.parallelism || t < 1 || t > SLOW_HASH_LIMITS.argon2Passes) return false;
  if (kib < 8 * p || kib * 1024 > SLOW_HASH_LIMITS.memoryBytes) return false;
  // Argon2 itself requires 8 bytes of salt (RFC 9106 §3.1).
  return saltAndHash(m[4]!, m[5]!, 8) !== null;
}

function isBcrypt(encoded: string): boolean {
  const m = BCRYPT.exec(encoded);
  return m !== null && Number(m[1]) >= 4 && Number(m[1]) <= SLOW_HASH_LIMITS.bcryptCost;
}

export function isSlowHash(algorithm: SlowAlgorithm, encoded: string): boolean {
  if (algorithm === 'bcrypt') return isBcrypt(encoded);
  if (algorithm === 'scrypt') return parseScrypt(encoded) !== null;
  return isArgon2id(encoded);
}

/** `<lookup>:<encoded slow hash>` split and checked, or null when it is not of this algorithm. */
export function parseSlowImport(algorithm: SlowAlgorithm, given: string): { lookup: string; encoded: string } | null {
  const cut = given.indexOf(':');
  if (cut < 0) return null;
  const lookup = given.slice(0, cut);
  const encoded = given.slice(cut + 1);
  return LOOKUP.test(lookup) && isSlowHash(algorithm, encoded) ? { lookup, encoded } : null;
}
