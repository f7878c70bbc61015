/**
 * A running embedded server remembers what verification reads (keys, their APIs, identities and
 * roles, root keys), so changes made by another process on the same DATA_DIR — the `keygate` CLI,
 * or any program opening the folder through keygate's storage — must reach it: within 100 ms of
 * the other process's write, each change shows in the server's answers. Every remembered thing
 * is used first, so it is in memory when the change comes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { CLI_JS, run, spawnKeygate, type ChildKeygate } from '../support/process.js';
import { openLmdbStorage } from '../../src/storage/lmdb/open.js';
import { generateKey } from '../../src/keys/format.js';
import type { Storage } from '../../src/storage/types.js';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import { recordSecret } from '../support/run-logs.js';

const REACHES_WITHIN_MS = 100;

describe('changes made by another process reach the running embedded server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-cross-process-'));
  const rootKey = `cross-process-root-${Date.now()}-0123456789`;
  let server: ChildKeygate;
  let storage: Storage;
  const call = (procedure: string, body: unknown, key: string = rootKey) => callKeygate(server.url, `/v2/${procedure}`, body, { rootKey: key });
  const verify = async (key: string, extra: Record<string, unknown> = {}) => {
    const res = await call('keys.verifyKey', { key, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    server = await spawnKeygate({ DATA_DIR: dataDir, ROOT_KEY: rootKey });
    storage = openLmdbStorage(dataDir);
  });
  afterAll(async () => {
    await storage?.close();
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs `write` in this process, then asks until `seen` holds; answers how long that took. */
  async function reachesServer(write: () => Promise<unknown>, seen: () => Promise<boolean>): Promise<number> {
    await write();
    const writtenAt = performance.now();
    for (;;) {
      if (await seen()) return performance.now() - writtenAt;
      expect(performance.now() - writtenAt, 'the change never reached the server').toBeLessThan(5_000);
    }
  }

  async function newKey(body: Record<string, unknown> = {}): Promise<{ keyId: string; key: string; record: KeyRecord }> {
    const apiId = (await call('apis.createApi', { name: 'cross-process' })).body.data.apiId;
    const res = await call('keys.createKey', { apiId, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    recordSecret(res.body.data.key);
    const record = (await storage.keys.get(res.body.data.keyId))!;
    return { keyId: res.body.data.keyId, key: res.body.data.key, record };
  }

  test('a key disabled by another process', async () => {
    const { keyId, key } = await newKey();
    expect((await verify(key)).code).toBe('VALID');
    const took = await reachesServer(
      () => storage.keys.modify(keyId, (k) => ({ ...k, enabled: false })),
      async () => (await verify(key)).code === 'DISABLED');
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });

  test('a key that did not exist when it was first tried, inserted by another process', async () => {
    const { record } = await newKey();
    const made = generateKey('xp', 16);
    recordSecret(made.plaintext);
    expect((await verify(made.plaintext)).code).toBe('NOT_FOUND');
    const took = await reachesServer(
      () => storage.keys.insert({ ...record, id: `key_xp${Date.now()}`, hash: made.hash, start: made.start }, null),
      async () => (await verify(made.plaintext)).code === 'VALID');
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });

  test("a key's API deleted by another process", async () => {
    const { key, record } = await newKey();
    expect((await verify(key)).valid).toBe(true);
    const took = await reachesServer(
      () => storage.apis.markDeleted(record.apiId, Date.now()),
      async () => (await verify(key)).code === 'NOT_FOUND');
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });

  test("a key's identity limit changed by another process", async () => {
    const externalId = `xp-${Date.now()}`;
    const created = await call('identities.createIdentity', { externalId, ratelimits: [{ name: 'calls', limit: 1000, duration: 60_000, autoApply: true }] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { key } = await newKey({ externalId });
    expect((await verify(key)).ratelimits[0].limit).toBe(1000);
    const identity = (await storage.identities.findByExternalId(WORKSPACE_ID, externalId));
    expect(identity).not.toBeNull();
    const took = await reachesServer(
      () => storage.identities.update({ ...identity!, ratelimits: identity!.ratelimits.map((r) => ({ ...r, limit: 0 })) }),
      async () => (await verify(key)).code === 'RATE_LIMITED');
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });

  test("a permission of a key's role, taken from the role by another process", async () => {
    const permission = await call('permissions.createPermission', { name: 'xp.read', slug: `xp.read.${Date.now()}` });
    expect(permission.status, JSON.stringify(permission.body)).toBe(200);
    const slug = (await storage.permissions.get(permission.body.data.permissionId))!.slug;
    const roleName = `xp-role-${Date.now()}`;
    const role = await call('permissions.createRole', { name: roleName });
    expect(role.status, JSON.stringify(role.body)).toBe(200);
    const roleId = role.body.data.roleId;
    expect((await storage.roles.setPermissions(roleId, [permission.body.data.permissionId]))).not.toBeNull();
    const { key } = await newKey({ roles: [roleName] });
    expect((await verify(key, { permissions: slug })).code).toBe('VALID');
    const took = await reachesServer(
      () => storage.roles.setPermissions(roleId, []),
      async () => (await verify(key, { permissions: slug })).code === 'INSUFFICIENT_PERMISSIONS');
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });

  test('a root key revoked with the CLI', async () => {
    const made = await run(process.execPath, [CLI_JS, 'root-key', 'create', '--name', 'xp', '--permission', 'api.*.read_api'], { DATA_DIR: dataDir });
    expect(made.code, made.stderr).toBe(0);
    const { id, key } = JSON.parse(made.stdout);
    expect((await call('apis.listApis', {}, key)).status).toBe(200);
    const took = await reachesServer(async () => {
      const revoked = await run(process.execPath, [CLI_JS, 'root-key', 'revoke', id], { DATA_DIR: dataDir });
      expect(revoked.code, revoked.stderr).toBe(0);
    }, async () => (await call('apis.listApis', {}, key)).status === 401);
    expect(took).toBeLessThan(REACHES_WITHIN_MS);
  });
});
