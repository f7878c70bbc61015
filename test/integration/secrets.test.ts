import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { CLI_JS, run, spawnKeygate } from '../support/process.js';

const ROOT_KEY = 'secrets_test_root_key_ABCDEFGHJK';

/** Every file under `dir`, as bytes. */
function allBytes(dir: string): Buffer {
  return Buffer.concat(readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name))));
}

describe('plaintext keys are never stored or logged', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-secrets-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('no API key or root key appears in the data files or in the trace-level logs', async () => {
    const cli = await run(process.execPath, [CLI_JS, 'root-key', 'create', '--name', 'ci', '--all-permissions'], { DATA_DIR: dataDir });
    expect(cli.code).toBe(0);
    const cliKey = JSON.parse(cli.stdout).key as string;
    const server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY, LOG_LEVEL: 'trace' });
    const secrets = [ROOT_KEY, cliKey];
    try {
      const call = (p: string, body: unknown, rootKey = cliKey, raw?: string) =>
        callKeygate(server.url, `/v2/${p}`, body, { rootKey, raw });
      const apiId = (await call('apis.createApi', { name: 'secret-api' })).body.data.apiId;
      for (let i = 0; i < 5; i++) {
        const { key } = (await call('keys.createKey', { apiId, prefix: 'sk', externalId: `user_${i}`, credits: { remaining: 3 } })).body.data;
        secrets.push(key);
        await call('keys.verifyKey', { key }, ROOT_KEY);
        await call('keys.verifyKey', { key, permissions: 'a AND' });
        // Hostile or broken requests that carry the key where it does not belong.
        await call('keys.verifyKey', {}, key);
        await call('keys.verifyKey', undefined, ROOT_KEY, `{"key":"${key}"`);
        await call('keys.verifyKey', { key, [key]: 1 }, ROOT_KEY);
        await call('apis.createApi', { name: key }, key);
      }
      expect(secrets.every((s) => s.length >= 20)).toBe(true);
    } finally {
      await server.kill();
    }
    const files = allBytes(dataDir);
    const logs = server.output() + cli.stderr;
    expect(logs).toContain('"requestId"');
    for (const secret of secrets) {
      expect(files.includes(Buffer.from(secret)), 'a plaintext key is in the data files').toBe(false);
      expect(logs.includes(secret), 'a plaintext key is in the logs').toBe(false);
    }
  });
});
