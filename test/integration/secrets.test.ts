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

  test('keys sent where they do not belong (path, query string, other headers, bodies) are never logged nor echoed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-secrets-where-'));
    const server = await spawnKeygate({ DATA_DIR: dir, ROOT_KEY, LOG_LEVEL: 'trace' });
    const answers: string[] = [];
    const secrets: string[] = [];
    try {
      const call = (p: string, body: unknown, rootKey: string | null = ROOT_KEY) => callKeygate(server.url, `/v2/${p}`, body, { rootKey });
      const apiId = (await call('apis.createApi', { name: 'where' })).body.data.apiId;
      const { key } = (await call('keys.createKey', { apiId, prefix: 'sk' })).body.data;
      const rootKey = (await call('rootKeys.createRootKey', { name: 'where', permissions: ['api.*.read_api'] })).body.data.key;
      secrets.push(key, rootKey);
      for (const secret of secrets) {
        const post = { 'content-type': 'application/json' };
        const requests: [string, RequestInit][] = [
          [`/v2/${secret}`, { method: 'POST', headers: post, body: '{}' }],
          [`/v2/keys.verifyKey?key=${secret}`, { method: 'POST', headers: { ...post, authorization: `Bearer ${ROOT_KEY}` }, body: JSON.stringify({ key: 'nope' }) }],
          [`/v2/keys.verifyKey/${secret}`, { method: 'POST', headers: post, body: '{}' }],
          [`/${'x'.repeat(3000)}/${secret}`, { method: 'GET' }],
          [`/v2/liveness?token=${secret}`, { method: 'GET' }],
          [`/dashboard/${secret}`, { method: 'GET' }],
          [`/dashboard/api/session?rootKey=${secret}`, { method: 'GET', headers: { cookie: `keygate_session=${secret}` } }],
          ['/v2/apis.listApis', { method: 'POST', headers: { ...post, 'x-api-key': secret, 'x-custom': secret, cookie: `keygate_session=${secret}; other=${secret}` }, body: '{}' }],
          ['/v2/apis.listApis', { method: 'POST', headers: { ...post, authorization: `Basic ${secret}` }, body: '{}' }],
          ['/v2/apis.listApis', { method: 'POST', headers: { ...post, authorization: `Bearer ${secret} extra` }, body: '{}' }],
          ['/v2/apis.listApis', { method: 'POST', headers: { ...post, authorization: `Bearer ${ROOT_KEY}`, 'x-keygate-csrf': secret }, body: `{"broken": "${secret}"` }],
          ['/v2/keys.verifyKey', { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${ROOT_KEY}` }, body: secret }],
          ['/v2/keys.verifyKey', { method: 'PUT', headers: { ...post, authorization: `Bearer ${secret}` }, body: JSON.stringify({ key: secret }) }],
          ['/dashboard/api/session', { method: 'POST', headers: post, body: JSON.stringify({ rootKey: `${secret}x` }) }],
        ];
        for (const [path, init] of requests) {
          const res = await fetch(`${server.url}${path}`, init).catch((err: unknown) => ({ status: 0, text: async () => String(err) }));
          answers.push(`${res.status}: ${await res.text()}`);
        }
      }
    } finally {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
    // Read once the server has exited: log lines are written in batches.
    const logs = server.output();
    expect(logs).toContain('"requestId"');
    for (const secret of secrets) {
      expect(logs.includes(secret), 'a key sent in a URL, a header or a body is in the logs').toBe(false);
      for (const answer of answers) expect(answer.includes(secret), `an answer echoes the key: ${answer.slice(0, 80)}`).toBe(false);
    }
  });
});
