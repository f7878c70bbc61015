/**
 * `keygate migration create|list` on a running server: the migration it prints is what
 * keys.migrateKeys imports under, and the imported key verifies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { foreignKey, slowKey } from '../support/migrations.js';
import { CLI_JS, run, spawnKeygate } from '../support/process.js';

describe('keygate migration (CLI)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-migration-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const rootKey = 'migration-cli-root-key-0123456789';

  test('create prints an id that migrateKeys accepts; list shows it', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    try {
      const created = await run(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'sha256', '--name', 'legacy'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      const { id, algorithm } = JSON.parse(created.stdout);
      expect(id).toMatch(/^mig_/);
      expect(algorithm).toBe('sha256');
      const listed = JSON.parse((await run(process.execPath, [CLI_JS, 'migration', 'list'], { DATA_DIR: dataDir })).stdout);
      expect(listed).toContainEqual(expect.objectContaining({ id, name: 'legacy', algorithm: 'sha256' }));

      const call = (procedure: string, body: unknown) => callKeygate(server.url, `/v2/${procedure}`, body, { rootKey });
      const apiId = (await call('apis.createApi', { name: 'migrated' })).body.data.apiId;
      const k = foreignKey();
      const res = await call('keys.migrateKeys', { migrationId: id, apiId, keys: [{ hash: k.hex }] });
      expect(res.status).toBe(200);
      expect((await call('keys.verifyKey', { key: k.plaintext })).body.data.valid).toBe(true);
      // Shutdown closes the pool's threads: the process ends cleanly, without being killed.
      expect(await server.kill()).toBe(0);
    } finally {
      await server.kill();
    }
  });

  test('create --algorithm bcrypt: imported <lookup>:<hash> keys verify in the server\'s worker pool (dist/)', async () => {
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey, HASH_WORKERS: '2' });
    try {
      const created = await run(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'bcrypt'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      const { id, algorithm } = JSON.parse(created.stdout);
      expect(algorithm).toBe('bcrypt');

      const call = (procedure: string, body: unknown) => callKeygate(server.url, `/v2/${procedure}`, body, { rootKey });
      const apiId = (await call('apis.createApi', { name: 'migrated-bcrypt' })).body.data.apiId;
      const k = slowKey('bcrypt');
      expect((await call('keys.migrateKeys', { migrationId: id, apiId, keys: [{ hash: k.imported }] })).status).toBe(200);
      expect((await call('keys.verifyKey', { key: k.wrongSecret, migrationId: id })).body.data.code).toBe('NOT_FOUND');
      expect((await call('keys.verifyKey', { key: k.plaintext, migrationId: id })).body.data.valid).toBe(true);
      expect((await call('keys.verifyKey', { key: k.plaintext })).body.data.valid).toBe(true);
      // Shutdown closes the pool's threads: the process ends cleanly, without being killed.
      expect(await server.kill()).toBe(0);
    } finally {
      await server.kill();
    }
  });

  test('create refuses an unknown algorithm, naming the known ones', async () => {
    const bad = await run(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'md5'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('github.com/seamapi/prefixed-api-key, bcrypt, scrypt, argon2id');
    const help = await run(process.execPath, [CLI_JS, 'migration', '--help'], { DATA_DIR: dataDir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keygate migration create');
    expect(help.stdout).toContain('bcrypt, scrypt, argon2id');
    expect(help.stdout).toContain('the hash covers <secret> only');
  });
});
