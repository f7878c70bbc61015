/**
 * Key migrations for tests. Operators create them with `keygate migration create` (covered by
 * test/integration/migration-cli.test.ts); route tests seed them through storage, as the harness
 * does for root keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { MigrationAlgorithm } from '../../src/storage/records.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import { newId } from '../../src/util/ids.js';
import type { Harness } from './harness.js';

export async function createMigration(h: Harness, algorithm: MigrationAlgorithm = 'sha256'): Promise<string> {
  const id = newId('mig');
  await h.keygate.services.storage.migrations.insert({ id, workspaceId: WORKSPACE_ID, algorithm, createdAt: Date.now() });
  return id;
}

/** A key as another system would have issued it, with the hashes it kept. */
export function foreignKey(prefix = 'legacy'): { plaintext: string; base64: string; hex: string } {
  const plaintext = `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;
  const digest = createHash('sha256').update(plaintext).digest();
  return { plaintext, base64: digest.toString('base64'), hex: digest.toString('hex') };
}

/** A github.com/seamapi/prefixed-api-key key: `<prefix>_<short>_<long>`, kept as hex SHA-256 of `<long>`. */
export function prefixedKey(prefix = 'acme'): { plaintext: string; longTokenHash: string; start: string } {
  const short = randomBytes(6).toString('hex');
  const long = randomBytes(12).toString('hex');
  return {
    plaintext: `${prefix}_${short}_${long}`,
    longTokenHash: createHash('sha256').update(long).digest('hex'),
    start: `${prefix}_${short.slice(0, 4)}`,
  };
}
