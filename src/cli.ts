#!/usr/bin/env node
/**
 * The `keygate` command: runs the server, and manages root keys in the same DATA_DIR (safe while
 * the server runs: LMDB coordinates the processes). A new root key is printed once, never stored.
 */
import { parseArgs } from 'node:util';
import { ALL_PERMISSIONS, permissionProblem } from './auth/permissions.js';
import { newRootKey } from './auth/bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { openToolStorage } from './wiring/tool-storage.js';
import { MIGRATION_HELP, migrationCommand } from './cli-migration.js';
import { newId } from './util/ids.js';
import { target } from './audit/targets.js';
import { operatorEvent } from './audit/context.js';

const HELP: Record<string, string> = {
  main: `keygate: API keys and rate limits, speaking the Unkey v2 API.

Usage:
  keygate [serve]              run the server (settings come from the environment; see docs/settings.md)
  keygate root-key <command>   manage root keys in DATA_DIR (create, list, revoke)
  keygate migration <command>  manage key migrations for keys.migrateKeys (create, list)
  keygate <command> --help     help for a command
`,
  serve: `Usage: keygate serve

Runs the server. Settings come from the environment: PORT, HOST, DATA_DIR, ROOT_KEY, DOCS_URL,
LOG_LEVEL, BODY_LIMIT_BYTES, VERIFICATIONS_RETAINED, SHUTDOWN_GRACE_MS, HASH_WORKERS; distributed mode: REDIS_URL or
REDIS_CLUSTER_NODES, REDIS_COMMAND_TIMEOUT_MS, REDIS_KEY_PREFIX, RATELIMIT_FAIL_MODE,
CACHE_MAX_ENTRIES, CACHE_TTL_MS (see docs/settings.md).
`,
  'root-key': `Usage:
  keygate root-key create [--name NAME] (--permission PERM ... | --all-permissions)
  keygate root-key list
  keygate root-key revoke ROOT_KEY_ID

Root keys authenticate calls to keygate (Authorization: Bearer <root key>). A new key is printed
once; keygate keeps only its SHA-256. PERM is a tuple <type>.<id or *>.<action>, e.g.
api.*.verify_key; --permission may be repeated or take a comma-separated list.
Uses the DATA_DIR setting (default ./data), or Redis when REDIS_URL or REDIS_CLUSTER_NODES is set.
`,
  migration: MIGRATION_HELP,
};

function fail(message: string, code = 2): never {
  process.stderr.write(`keygate: ${message}\n`);
  process.exit(code);
}

async function rootKeyCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      permission: { type: 'string', multiple: true },
      'all-permissions': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(HELP['root-key']!);
    return;
  }
  const { storage, close } = await openToolStorage(loadConfig());
  try {
    switch (command) {
      case 'create': {
        const requested = (values.permission ?? []).flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
        if (values['all-permissions'] && requested.length > 0) fail('use either --permission or --all-permissions, not both');
        if (!values['all-permissions'] && requested.length === 0) {
          fail('choose what the key may do: --permission PERM (repeatable) or --all-permissions');
        }
        const problems = requested.map(permissionProblem).filter((p): p is string => p !== null);
        if (problems.length > 0) fail(`unknown permission: ${problems.join('; ')}`);
        const { record, plaintext } = newRootKey(newId('rk'), values.name, values['all-permissions'] ? ALL_PERMISSIONS : requested);
        await storage.rootKeys.put(record, operatorEvent('cli', 'cli:root-key create', {
          targets: [target('root_key', record.id, record.name)], summary: 'created root key', changes: { permissions: record.permissions },
        }));
        process.stdout.write(`${JSON.stringify({ id: record.id, name: record.name ?? null, key: plaintext, permissions: record.permissions }, null, 2)}\n`);
        process.stderr.write('Store this root key now: it is shown once and cannot be recovered.\n');
        return;
      }
      case 'list': {
        const keys = await storage.rootKeys.list();
        const rows = keys.map((k) => ({
          id: k.id, name: k.name ?? null, start: k.start, createdAt: new Date(k.createdAt).toISOString(),
          revokedAt: k.revokedAt === undefined ? null : new Date(k.revokedAt).toISOString(), permissions: k.permissions,
        }));
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) fail('revoke needs the id of a root key (see `keygate root-key list`)');
        const event = operatorEvent('cli', 'cli:root-key revoke', { targets: [target('root_key', id)], summary: 'revoked root key' });
        if (!(await storage.rootKeys.revoke(id, Date.now(), event))) fail(`no root key with id '${id}'`, 1);
        process.stdout.write(`revoked ${id}\n`);
        return;
      }
      default:
        fail(`unknown root-key command '${command}'\n\n${HELP['root-key']}`);
    }
  } finally {
    await close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(HELP.main!);
    return;
  }
  if (command === 'serve') {
    if (rest.includes('--help') || rest.includes('-h')) {
      process.stdout.write(HELP.serve!);
      return;
    }
    const { serve } = await import('./main.js');
    await serve();
    return;
  }
  if (command === 'root-key') {
    await rootKeyCommand(rest);
    return;
  }
  if (command === 'migration') {
    await migrationCommand(rest, fail);
    return;
  }
  fail(`unknown command '${command}'\n\n${HELP.main}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError) fail(err.message);
  fail(err instanceof Error ? err.message : String(err), 1);
});
