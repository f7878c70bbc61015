/**
 * API-key and root-key material: generation, the storage hash and the display `start`.
 * The plaintext exists only in the createKey response; everything stored is derived from it.
 */
import { hash as digest, randomBytes } from 'node:crypto';
import { base58 } from '../util/base58.js';

/** The storage hash Unkey uses: base64 (standard, padded) of SHA-256 of the whole key string. */
export function hashKey(plaintext: string): string {
  // crypto.hash is the one-shot API (Node ≥ 20.12): no Hash object per call, as createHash makes.
  return digest('sha256', plaintext, 'base64');
}

export interface GeneratedKey {
  readonly plaintext: string;
  readonly hash: string;
  /** Non-secret display prefix: `<prefix>_` + first 4 characters of the random part. */
  readonly start: string;
}

export function generateKey(prefix: string | undefined, byteLength: number): GeneratedKey {
  const random = base58(randomBytes(byteLength));
  const plaintext = prefix ? `${prefix}_${random}` : random;
  const start = prefix ? `${prefix}_${random.slice(0, 4)}` : random.slice(0, 4);
  return { plaintext, hash: hashKey(plaintext), start };
}

/** Root keys: fixed prefix so secret scanners and people can tell them apart from API keys. */
export const ROOT_KEY_PREFIX = 'kgroot';

export function generateRootKey(): GeneratedKey {
  return generateKey(ROOT_KEY_PREFIX, 32);
}
