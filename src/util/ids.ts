/** Identifiers: prefix + '_' + random base58, e.g. key_3ZbQk7Yq2Lr9Xw4T. Opaque to clients. */
import { randomBytes } from 'node:crypto';
import { base58 } from './base58.js';

export type IdPrefix = 'api' | 'ks' | 'key' | 'id' | 'rl' | 'rlns' | 'rlor' | 'perm' | 'role' | 'req' | 'rk' | 'mig';

/** 12 random bytes → 16–17 base58 characters: collisions are not a practical concern. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base58(randomBytes(12))}`;
}
