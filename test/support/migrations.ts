/**
 * Key migrations for tests. Operators create them with `keygate migration create` (covered by
 * test/integration/migration-cli.test.ts); route tests seed them through storage, as the harness
 * does for root keys.
 */
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { hashSync as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import type { SlowAlgorithm } from '../../src/keys/migration-slow.js';
import type { MigrationAlgorithm } from '../../src/storage/records.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import { newId } from '../../src/util/ids.js';
import type { Harness } from './harness.js';
import { recordSecret } from './run-logs.js';

/** Every plaintext made here is recorded for the end-of-run search of the logs (run-logs.ts). */
const recorded = <T extends { plaintext: string }>(key: T): T => {
  recordSecret(key.plaintext);
  return key;
};

export async function createMigration(h: Harness, algorithm: MigrationAlgorithm = 'sha256'): Promise<string> {
  const id = newId('mig');
  await h.keygate.services.storage.migrations.insert({ id, workspaceId: WORKSPACE_ID, algorithm, createdAt: Date.now() });
  return id;
}

/** A key as another system would have issued it, with the hashes it kept. */
export function foreignKey(prefix = 'legacy'): { plaintext: string; base64: string; hex: string } {
  const plaintext = `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
  const digest = createHash('sha256').update(plaintext).digest();
  return recorded({ plaintext, base64: digest.toString('base64'), hex: digest.toString('hex') });
}

/** A github.com/seamapi/prefixed-api-key key: `<prefix>_<short>_<long>`, kept as hex SHA-256 of `<long>`. */
export function prefixedKey(prefix = 'acme'): { plaintext: string; longTokenHash: string; start: string } {
  const short = randomBytes(6).toString('hex');
  const long = randomBytes(12).toString('hex');
  return recorded({
    plaintext: `${prefix}_${short}_${long}`,
    longTokenHash: createHash('sha256').update(long).digest('hex'),
    start: `${prefix}_${short.slice(0, 4)}`,
  });
}

/**
 * The source system's slow hash of `secret`, in the encoding migrateKeys takes, made with the
 * libraries keygate verifies with (node:crypto for scrypt). Cheap parameters keep tests fast.
 */
export function slowHash(algorithm: SlowAlgorithm, secret: string): string {
  if (algorithm === 'bcrypt') return bcrypt.hashSync(secret, 4);
  if (algorithm === 'argon2id') return argon2Hash(secret, { memoryCost: 1024, timeCost: 1, parallelism: 1 });
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
  return `$scrypt$ln=10,r=8,p=1$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * A key `<prefix>_<lookup>_<secret>` of a slow-hash system; `imported` is migrateKeys' `hash`
 * (`<lookup>:<slow hash of secret>`), `wrongSecret` the same lookup with another secret.
 */
export function slowKey(algorithm: SlowAlgorithm, prefix = 'acme') {
  const lookup = randomBytes(6).toString('hex');
  const secret = randomBytes(12).toString('hex');
  return recorded({
    plaintext: `${prefix}_${lookup}_${secret}`,
    wrongSecret: `${prefix}_${lookup}_${randomBytes(12).toString('hex')}`,
    lookup,
    imported: `${lookup}:${slowHash(algorithm, secret)}`,
    start: `${prefix}_${lookup.slice(0, 4)}`,
  });
}
