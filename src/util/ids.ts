/** Identifiers: prefix + '_' + random base58, e.g. key_3ZbQk7Yq2Lr9Xw4T. Opaque to clients. */
import { randomFillSync } from 'node:crypto';
import { base58 } from './base58.js';

export type IdPrefix = 'api' | 'ks' | 'key' | 'id' | 'rl' | 'rlns' | 'rlor' | 'perm' | 'role' | 'req' | 'rk' | 'mig';

/**
 * Random bytes drawn from a pool refilled 4 KiB at a time: one getrandom call per ~340 ids
 * instead of one per id (every request mints a request id; a profile showed ~8 % of CPU there).
 * Ids are identifiers, not secrets; keys and root keys draw their own bytes (keys/format.ts).
 */
const POOL_BYTES = 4_096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

export function randomIdBytes(length: number): Uint8Array {
  if (offset + length > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += length;
  return pool.subarray(offset - length, offset);
}

/** 12 random bytes → 16–17 base58 characters: collisions are not a practical concern. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base58(randomIdBytes(12))}`;
}
