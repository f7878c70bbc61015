/** Identifiers: prefix + '_' + random base58, e.g. key_3ZbQk7Yq2Lr9Xw4T7. Opaque to clients. */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** 17 base58 characters: about 99.6 random bits, collisions are not a practical concern. */
const ID_CHARS = 17;
/** Bytes below this map evenly onto the alphabet (4 × 58); the others are skipped. */
const UNBIASED_BELOW = 232;

export type IdPrefix = 'api' | 'ks' | 'key' | 'id' | 'rl' | 'rlns' | 'rlor' | 'perm' | 'role' | 'req' | 'rk' | 'mig';

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one getrandom call per ~200 ids instead
 * of one per id, and one character per byte instead of a base58 conversion (every request mints
 * a request id). Ids are identifiers, not secrets; keys and root keys draw their own bytes
 * (keys/format.ts).
 */
const POOL_BYTES = 4_096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0));
/**
 * Per prefix, the character codes of `<prefix>_` and room for the random ones: an id is made by
 * one String.fromCharCode call, a flat string without a trip through a Buffer.
 */
const scratch = new Map<IdPrefix, number[]>();

export function newId(prefix: IdPrefix): string {
  let out = scratch.get(prefix);
  if (out === undefined) scratch.set(prefix, out = Array.from(`${prefix}_${'1'.repeat(ID_CHARS)}`, (c) => c.charCodeAt(0)));
  for (let n = out.length - ID_CHARS; n < out.length;) {
    if (offset === POOL_BYTES) {
      randomFillSync(pool);
      offset = 0;
    }
    const byte = pool[offset++]!;
    if (byte < UNBIASED_BELOW) out[n++] = CODES[byte % 58]!;
  }
  return String.fromCharCode.apply(null, out);
}
