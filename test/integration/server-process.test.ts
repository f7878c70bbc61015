import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { CLI_JS, MAIN_JS, run, spawnKeygate } from '../support/process.js';

describe('running keygate', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-proc-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('a second server on the same port fails instead of sharing it', async () => {
    const first = await spawnKeygate({ DATA_DIR: dataDir });
    try {
      const port = new URL(first.url).port;
      const second = await run(process.execPath, [MAIN_JS], { PORT: port, DATA_DIR: join(dataDir, 'other') });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await first.kill();
    }
  });

  test('invalid settings are reported together and stop start-up', async () => {
    const result = await run(process.execPath, [MAIN_JS], { PORT: 'eighty', LOG_LEVEL: 'loud', ROOT_KEY: 'short' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('PORT must be a whole number');
    expect(result.stderr).toContain('LOG_LEVEL must be one of');
    expect(result.stderr).toContain('ROOT_KEY must be at least 16 characters');
    expect(result.stderr).not.toContain("'short'");
  });

  test('root keys made and revoked with the CLI take effect on a running server', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir });
    try {
      const created = await run(process.execPath, [CLI_JS, 'root-key', 'create', '--name', 'ops', '--permission', 'api.*.create_api,api.*.read_api'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      expect(created.stderr).toContain('shown once');
      const { id, key, permissions } = JSON.parse(created.stdout);
      expect(key).toMatch(/^kgroot_/);
      expect(permissions).toEqual(['api.*.create_api', 'api.*.read_api']);

      const ok = await callKeygate(server.url, '/v2/apis.createApi', { name: 'cli-made' }, { rootKey: key });
      expect(ok.status).toBe(200);
      const denied = await callKeygate(server.url, '/v2/identities.createIdentity', { externalId: 'x' }, { rootKey: key });
      expect(denied.status).toBe(403);

      const listed = await run(process.execPath, [CLI_JS, 'root-key', 'list'], { DATA_DIR: dataDir });
      expect(listed.stdout).not.toContain(key);
      expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ id, name: 'ops', revokedAt: null }));

      expect((await run(process.execPath, [CLI_JS, 'root-key', 'revoke', id], { DATA_DIR: dataDir })).code).toBe(0);
      const revoked = await callKeygate(server.url, '/v2/apis.createApi', { name: 'after-revoke' }, { rootKey: key });
      expect(revoked.status).toBe(401);
    } finally {
      await server.kill();
    }
  });

  test('the CLI refuses unknown permissions and a create without any', async () => {
    const typo = await run(process.execPath, [CLI_JS, 'root-key', 'create', '--permission', 'api.*.verify_keys'], { DATA_DIR: dataDir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("'verify_keys' is not an action of 'api'");
    const none = await run(process.execPath, [CLI_JS, 'root-key', 'create'], { DATA_DIR: dataDir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--all-permissions');
    const help = await run(process.execPath, [CLI_JS, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keygate root-key');
  });

  test('ROOT_KEY is registered idempotently, replaced when changed, and removed when unset', async () => {
    const dir = join(dataDir, 'bootstrap');
    const a = 'bootstrap_root_key_AAAAAAAAAAAA';
    const b = 'bootstrap_root_key_BBBBBBBBBBBB';
    const probe = async (url: string, key: string) => (await callKeygate(url, '/v2/apis.createApi', { name: 'probe' }, { rootKey: key })).status;
    let s = await spawnKeygate({ DATA_DIR: dir, ROOT_KEY: a });
    expect(await probe(s.url, a)).toBe(200);
    await s.kill();
    s = await spawnKeygate({ DATA_DIR: dir, ROOT_KEY: a });
    expect(await probe(s.url, a)).toBe(200);
    await s.kill();
    s = await spawnKeygate({ DATA_DIR: dir, ROOT_KEY: b });
    expect(await probe(s.url, a)).toBe(401);
    expect(await probe(s.url, b)).toBe(200);
    await s.kill();
    s = await spawnKeygate({ DATA_DIR: dir });
    expect(await probe(s.url, b)).toBe(401);
    expect(s.output()).toContain('no root key exists yet');
    await s.kill();
  });

  test('SIGTERM stops the server cleanly with exit code 0', async () => {
    const server = await spawnKeygate({ DATA_DIR: join(dataDir, 'term') });
    expect(await server.kill('SIGTERM')).toBe(0);
  });
});
