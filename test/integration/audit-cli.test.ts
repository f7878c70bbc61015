/**
 * Changes made outside the API are in the audit log too: the `keygate` command (root-key create
 * and revoke, migration create) as actor `cli`, and the ROOT_KEY setting at start-up as actor
 * `bootstrap`, written by the CLI process into the server's DATA_DIR while the server runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { CLI_JS, run, spawnKeygate } from '../support/process.js';
import { recordSecret } from '../support/run-logs.js';

describe('audit events of the command line and of ROOT_KEY', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-audit-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const rootKey = 'audit-cli-root-key-0123456789';

  test('root-key create and revoke, migration create and the ROOT_KEY registration each record one event; no secret is kept', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    try {
      const cli = async (...args: string[]): Promise<string> => {
        const result = await run(process.execPath, [CLI_JS, ...args], { DATA_DIR: dataDir });
        expect(result.code, result.stderr).toBe(0);
        return result.stdout;
      };
      const created = JSON.parse(await cli('root-key', 'create', '--name', 'ops', '--permission', 'api.*.read_api'));
      recordSecret(created.key);
      await cli('root-key', 'revoke', created.id);
      const migration = JSON.parse(await cli('migration', 'create', '--algorithm', 'sha256'));

      const res = await callKeygate(server.url, '/v2/auditLogs.listAuditLogs', {}, { rootKey });
      expect(res.status).toBe(200);
      const events = res.body.data.map((e: any) => ({ actor: e.actor, procedure: e.procedure, targets: e.targets.map((t: any) => t.id) }));
      expect(events).toEqual([
        { actor: { type: 'cli' }, procedure: 'cli:migration create', targets: [migration.id] },
        { actor: { type: 'cli' }, procedure: 'cli:root-key revoke', targets: [created.id] },
        { actor: { type: 'cli' }, procedure: 'cli:root-key create', targets: [created.id] },
        { actor: { type: 'bootstrap' }, procedure: 'bootstrap:ROOT_KEY', targets: ['rk_env'] },
      ]);
      const cliOnly = await callKeygate(server.url, '/v2/auditLogs.listAuditLogs', { actor: 'cli' }, { rootKey });
      expect(cliOnly.body.data).toHaveLength(3);
      const log = JSON.stringify(res.body.data);
      expect(log).not.toContain(created.key);
      expect(log).not.toContain(rootKey);
    } finally {
      await server.kill();
    }
    // A restart with the same ROOT_KEY changes nothing and records nothing.
    const again = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    try {
      const res = await callKeygate(again.url, '/v2/auditLogs.listAuditLogs', { actor: 'bootstrap' }, { rootKey });
      expect(res.body.data).toHaveLength(1);
    } finally {
      await again.kill();
    }
  });
});
