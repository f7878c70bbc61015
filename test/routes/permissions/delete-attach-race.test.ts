/**
 * permissions.deletePermission / deleteRole racing with an attach (keys.addPermissions,
 * setPermissions, addRoles, setRoles, updateKey), over HTTP on LMDB and on the Redis Cluster. The
 * attach is stopped after its lookup, just before it writes the key, while the delete runs to
 * completion; then it goes on. It answers the 404 of a missing permission or role, the key does
 * not hold it, and a permission or role created again with the same slug or name is not granted
 * to the key. The reverse order (attach, then delete) leaves nothing behind either.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Config } from '../../../src/config.js';
import type { KeyStore, Storage } from '../../../src/storage/types.js';
import { expectError } from '../../support/auth-cases.js';
import { gate, type Gate } from '../../support/gate.js';
import { startHarness, type Harness } from '../../support/harness.js';

/** Wraps the keygate's key store so the next key change that attaches something waits at a gate first. */
function stopAttaches(storage: Storage): { next(): Gate } {
  const inner = storage.keys;
  let armed: Gate | null = null;
  const stopping = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'modifyAttaching') {
        return async (...args: Parameters<KeyStore['modifyAttaching']>) => {
          const stop = armed;
          armed = null;
          if (stop) await stop.pass();
          return inner.modifyAttaching(...args);
        };
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  (storage as { keys: KeyStore }).keys = stopping;
  return { next: () => (armed = gate()) };
}

const clusterSettings = (): Partial<Config> => ({
  redis: {
    clusterNodes: inject('redisClusterNodes').split(',').map((node) => ({ host: node.split(':')[0]!, port: Number(node.split(':')[1]) })),
    commandTimeoutMs: 5_000,
    keyPrefix: `kg-test-race-${randomBytes(4).toString('hex')}:`,
  },
});

describe.each([
  ['LMDB', (): Partial<Config> => ({})],
  ['Redis Cluster', clusterSettings],
])('a delete while an attach is under way, %s', (_store, settings) => {
  let h: Harness & { stop(): Promise<void> };
  let attaches: { next(): Gate };
  beforeAll(async () => {
    h = await startHarness(settings());
    attaches = stopAttaches(h.keygate.services.storage);
  });
  afterAll(async () => { await h?.stop(); });

  const ok = async (procedure: string, body: unknown): Promise<void> => {
    const res = await h.call(procedure, body);
    expect(res.status, `${procedure}: ${JSON.stringify(res.body)}`).toBe(200);
  };
  const keyOf = async (keyId: string): Promise<{ permissions?: string[]; roles?: string[] }> => (await h.call('keys.getKey', { keyId })).body.data;
  /** Runs `attach` up to its write, `del` to completion, then lets `attach` go on; resolves its answer. */
  const interleave = async (attach: () => Promise<any>, del: () => Promise<unknown>): Promise<any> => {
    const stopped = attaches.next();
    const answer = attach();
    await stopped.reached;
    await del();
    stopped.open();
    return answer;
  };

  test.each([
    ['keys.addPermissions', 'race.add'],
    ['keys.setPermissions', 'race.set'],
  ])('%s stopped before its write: 404 permission_not_found; the slug created again is not granted', async (procedure, slug) => {
    await ok('permissions.createPermission', { name: slug, slug });
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['race.kept'] });
    const res = await interleave(
      () => h.call(procedure, { keyId, permissions: procedure === 'keys.setPermissions' ? ['race.kept', slug] : [slug] }),
      () => ok('permissions.deletePermission', { permission: slug }),
    );
    expectError(res, 404, 'unkey/data/permission_not_found');
    expect(res.body.error.detail).toBe(`Permission '${slug}' was not found.`);
    expect((await keyOf(keyId)).permissions).toEqual(['race.kept']);
    await ok('permissions.createPermission', { name: slug, slug });
    expect((await h.verify(key, { permissions: slug })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await keyOf(keyId)).permissions).toEqual(['race.kept']);
  });

  test.each([
    ['keys.addRoles', 'race-add'],
    ['keys.setRoles', 'race-set'],
    ['keys.updateKey', 'race-update'],
  ])('%s stopped before its write: 404 role_not_found; the name created again is not granted', async (procedure, name) => {
    await ok('permissions.createRole', { name, permissions: [`${name}.perm`] });
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await interleave(
      () => h.call(procedure, { keyId, roles: [name] }),
      () => ok('permissions.deleteRole', { role: name }),
    );
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe(`Role '${name}' was not found.`);
    expect(await keyOf(keyId)).not.toHaveProperty('roles');
    await ok('permissions.createRole', { name, permissions: [`${name}.perm`] });
    expect((await h.verify(key, { permissions: `${name}.perm` })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await keyOf(keyId)).not.toHaveProperty('roles');
  });

  test('attach first, then delete: the permission and the role leave the key', async () => {
    await ok('permissions.createRole', { name: 'race-before', permissions: ['race.role-perm'] });
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await ok('keys.addPermissions', { keyId, permissions: ['race.before'] });
    await ok('keys.addRoles', { keyId, roles: ['race-before'] });
    expect((await h.verify(key, { permissions: 'race.before AND race.role-perm' })).body.data.code).toBe('VALID');
    await ok('permissions.deletePermission', { permission: 'race.before' });
    await ok('permissions.deleteRole', { role: 'race-before' });
    const after = await keyOf(keyId);
    expect(after).not.toHaveProperty('permissions');
    expect(after).not.toHaveProperty('roles');
    expect((await h.verify(key, { permissions: 'race.before' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await h.verify(key, { permissions: 'race.role-perm' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });
});
