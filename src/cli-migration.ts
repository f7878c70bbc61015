/**
 * `keygate migration`: the migrations that keys.migrateKeys imports keys under. Unkey's support
 * team creates these for a customer; a keygate operator creates them here, in the same DATA_DIR
 * (safe while the server runs).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { MIGRATION_ALGORITHMS } from './keys/migration.js';
import type { MigrationAlgorithm } from './storage/records.js';
import { WORKSPACE_ID } from './storage/records.js';
import { openToolStorage } from './wiring/tool-storage.js';
import { newId } from './util/ids.js';
import { target } from './audit/targets.js';
import { operatorEvent } from './audit/context.js';

export const MIGRATION_HELP = `Usage:
  keygate migration create --algorithm ALGORITHM [--name NAME]
  keygate migration list

A migration lets keys.migrateKeys import keys that another system created, by their hashes.
ALGORITHM is how that system hashed them:
  sha256                                SHA-256 of the whole key, as base64 or hex; such keys
                                        verify like any keygate key
  github.com/seamapi/prefixed-api-key   hex SHA-256 of the key's last '_' segment; verifyKey must
                                        pass migrationId until the key's first verification
  bcrypt, scrypt, argon2id              slow, salted hashes of keys <prefix>_<lookup>_<secret>:
                                        the hash covers <secret> only; migrateKeys takes
                                        '<lookup>:<hash>' with the hash as bcrypt's '$2b$…',
                                        '$scrypt$ln=…,r=…,p=…$<salt>$<hash>' or argon2id's PHC
                                        '$argon2id$v=19$m=…,t=…,p=…$<salt>$<hash>' (base64).
                                        verifyKey must pass migrationId until the key's first
                                        verification, which checks the secret on a worker
                                        thread (HASH_WORKERS) and rehashes it to SHA-256
Prints the new migration's id, to pass as migrationId. Uses the DATA_DIR setting (default ./data),
or Redis when REDIS_URL or REDIS_CLUSTER_NODES is set.
`;

export async function migrationCommand(args: string[], fail: (message: string, code?: number) => never): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { algorithm: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(MIGRATION_HELP);
    return;
  }
  if (command !== 'create' && command !== 'list') fail(`unknown migration command '${command}'\n\n${MIGRATION_HELP}`);
  const algorithm = values.algorithm as MigrationAlgorithm | undefined;
  if (command === 'create' && (algorithm === undefined || !MIGRATION_ALGORITHMS.includes(algorithm))) {
    fail(`--algorithm must be one of: ${MIGRATION_ALGORITHMS.join(', ')}`);
  }
  const { storage, close } = await openToolStorage(loadConfig());
  try {
    if (command === 'list') {
      const rows = (await storage.migrations.list()).map((m) => ({
        id: m.id, name: m.name ?? null, algorithm: m.algorithm, createdAt: new Date(m.createdAt).toISOString(),
      }));
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      return;
    }
    const record = {
      id: newId('mig'), workspaceId: WORKSPACE_ID, algorithm: algorithm!, createdAt: Date.now(),
      ...(values.name !== undefined ? { name: values.name } : {}),
    };
    await storage.migrations.insert(record, operatorEvent('cli', 'cli:migration create', {
      targets: [target('migration', record.id, record.name)], summary: `created migration (${record.algorithm})`, changes: { algorithm: record.algorithm },
    }));
    process.stdout.write(`${JSON.stringify({ id: record.id, name: record.name ?? null, algorithm: record.algorithm }, null, 2)}\n`);
  } finally {
    await close();
  }
}
