/**
 * Worker entry of the piscina pool (pool.ts): CPU-bound tasks, selected by export name.
 *
 * The synchronous forms are used on purpose: the worker thread is the place meant to burn the CPU,
 * so HASH_WORKERS bounds how many cores slow hashes take. The async forms of node:crypto's scrypt
 * and of @node-rs/argon2 would hand the work to libuv's or the addon's own threads instead,
 * competing with the event loop's I/O without that bound.
 */
import { scryptSync, timingSafeEqual } from 'node:crypto';
import { verifySync as argon2Verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { parseScrypt, type SlowAlgorithm } from '../keys/migration-slow.js';

export interface VerifySecretTask {
  readonly algorithm: SlowAlgorithm;
  /** The source system's hash in its standard encoding (validated by migrateKeys at import). */
  readonly encoded: string;
  readonly secret: string;
}

/** Whether `secret` is what `encoded` is a hash of. */
export function verifySecret({ algorithm, encoded, secret }: VerifySecretTask): boolean {
  if (algorithm === 'bcrypt') return bcrypt.compareSync(secret, encoded);
  if (algorithm === 'argon2id') return argon2Verify(encoded, secret);
  const params = parseScrypt(encoded);
  if (!params) return false;
  const { N, r, p, maxmem, salt, hash } = params;
  return timingSafeEqual(scryptSync(secret, salt, hash.length, { N, r, p, maxmem }), hash);
}
