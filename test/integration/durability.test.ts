import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { spawnKeygate } from '../support/process.js';
import { checkAcknowledged, prepareStream, writeUntilKilled } from '../support/write-stream.js';

const ROOT_KEY = 'durability_root_key_0123456789';

describe('what keygate acknowledged survives SIGKILL', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-kill-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('keys, identities and credits are as they were after kill -9 and restart', async () => {
    const env = { DATA_DIR: dataDir, ROOT_KEY };
    const first = await spawnKeygate(env);
    const call = (url: string, p: string, body: unknown) => callKeygate(url, `/v2/${p}`, body, { rootKey: ROOT_KEY });
    const apiId = (await call(first.url, 'apis.createApi', { name: 'durable' })).body.data.apiId;
    const identityId = (await call(first.url, 'identities.createIdentity', { externalId: 'durable_user' })).body.data.identityId;
    const keys: { key: string; keyId: string }[] = [];
    for (let i = 0; i < 20; i++) {
      keys.push((await call(first.url, 'keys.createKey', { apiId, externalId: 'durable_user', credits: { remaining: 10 } })).body.data);
    }
    // Spend 3 credits on each key; each answer is an acknowledgement.
    for (const { key } of keys) {
      for (let i = 0; i < 3; i++) expect((await call(first.url, 'keys.verifyKey', { key })).body.data.valid).toBe(true);
    }
    expect(await first.kill('SIGKILL')).toBeNull();

    const second = await spawnKeygate(env);
    try {
      for (const { key, keyId } of keys) {
        const data = (await call(second.url, 'keys.verifyKey', { key })).body.data;
        expect(data).toMatchObject({ valid: true, keyId, credits: 6, identity: { id: identityId, externalId: 'durable_user' } });
      }
      expect((await call(second.url, 'apis.getApi', { apiId })).body.data).toEqual({ id: apiId, name: 'durable' });
      expect((await call(second.url, 'identities.createIdentity', { externalId: 'durable_user' })).status).toBe(409);
    } finally {
      await second.kill();
    }
  });

  test('SIGKILL in the middle of a stream of writes: every acknowledged write is there after restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-kill-stream-'));
    const env = { DATA_DIR: dir, ROOT_KEY };
    let server = await spawnKeygate(env);
    try {
      const apiId = (await callKeygate(server.url, '/v2/apis.createApi', { name: 'stream' }, { rootKey: ROOT_KEY })).body.data.apiId;
      const target = { url: () => server.url, rootKey: ROOT_KEY, apiId };
      const keys = await prepareStream(target, 16);
      const outcome = await writeUntilKilled(target, keys, 600, async () => {
        expect(await server.kill('SIGKILL')).toBeNull();
      });
      // Before the kill every call was answered 200; after it, calls in flight lost their connection.
      expect(outcome.refused).toEqual([]);
      expect(outcome.connectionErrors).toBeGreaterThan(0);
      server = await spawnKeygate(env);
      await checkAcknowledged(target, outcome);
    } finally {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
