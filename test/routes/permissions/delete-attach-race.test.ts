/**
 * permissions.deletePermission / deleteRole racing with an attach (keys.addPermissions,
 * setPermissions, addRoles, setRoles, updateKey) or with a new key (keys.createKey, migrateKeys,
 * rerollKey), over HTTP on LMDB and on the Redis Cluster. The request is stopped after its lookup,
 * just before it writes the key, while the delete runs to completion; then it goes on. An attach
 * and createKey answer the 404 of a missing permission or role (createKey keeps no key);
 * migrateKeys and rerollKey store the key without it. No key holds it, and a permission or role
 * created again with the same slug or name is not granted to any. The reverse order (attach or
 * create, then delete) leaves nothing behind either.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Config } from '../../../src/config.js';
import { expectError } from '../../support/auth-cases.js';
import type { Gate } from '../../support/gate.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { createMigration, foreignKey } from '../../support/migrations.js';
import { stopKeyWrites } from '../../support/stop-key-writes.js';

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
    attaches = stopKeyWrites(h.keygate.services.storage);
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

  const keysOf = async (apiId: string): Promise<unknown[]> => (await h.call('apis.listKeys', { apiId })).body.data;

  test.each([
    ['a role', 'role_not_found', 'roles', 'race-create', 'Role'],
    ['a permission', 'permission_not_found', 'permissions', 'race.create', 'Permission'],
  ])('keys.createKey with %s deleted before its write: 404 %s, and no key is kept', async (_what, code, field, name, noun) => {
    if (field === 'roles') await ok('permissions.createRole', { name, permissions: [`${name}.perm`] });
    else await ok('permissions.createPermission', { name, slug: name });
    const apiId = await h.createApi();
    const body = field === 'roles' ? { apiId, roles: [name], permissions: ['race.create-kept'] } : { apiId, permissions: [name, 'race.create-kept'] };
    const res = await interleave(
      () => h.call('keys.createKey', body),
      () => (field === 'roles' ? ok('permissions.deleteRole', { role: name }) : ok('permissions.deletePermission', { permission: name })),
    );
    expectError(res, 404, `unkey/data/${code}`);
    expect(res.body.error.detail).toBe(`${noun} '${name}' was not found.`);
    expect(await keysOf(apiId)).toEqual([]);
    if (field === 'roles') await ok('permissions.createRole', { name, permissions: [`${name}.perm`] });
    else await ok('permissions.createPermission', { name, slug: name });
    expect(await keysOf(apiId)).toEqual([]);
  });

  test('keys.migrateKeys with a role and a permission deleted before its write: imported without them; created again, they are not granted', async () => {
    await ok('permissions.createRole', { name: 'race-migrate', permissions: ['race.migrate-role-perm'] });
    await ok('permissions.createPermission', { name: 'race.migrate', slug: 'race.migrate' });
    const apiId = await h.createApi();
    const migrationId = await createMigration(h);
    const imported = foreignKey();
    const res = await interleave(
      () => h.call('keys.migrateKeys', {
        migrationId, apiId, keys: [{ hash: imported.base64, roles: ['race-migrate'], permissions: ['race.migrate', 'race.migrate-kept'] }],
      }),
      async () => {
        await ok('permissions.deleteRole', { role: 'race-migrate' });
        await ok('permissions.deletePermission', { permission: 'race.migrate' });
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.failed).toEqual([]);
    const keyId = res.body.data.migrated[0].keyId;
    expect(await keyOf(keyId)).toMatchObject({ permissions: ['race.migrate-kept'] });
    expect(await keyOf(keyId)).not.toHaveProperty('roles');
    await ok('permissions.createRole', { name: 'race-migrate', permissions: ['race.migrate-role-perm'] });
    await ok('permissions.createPermission', { name: 'race.migrate', slug: 'race.migrate' });
    expect((await h.verify(imported.plaintext, { permissions: 'race.migrate-kept' })).body.data.code).toBe('VALID');
    expect((await h.verify(imported.plaintext, { permissions: 'race.migrate' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await h.verify(imported.plaintext, { permissions: 'race.migrate-role-perm' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('keys.rerollKey with a role and a permission of the old key deleted before its write: the new key comes without them', async () => {
    await ok('permissions.createRole', { name: 'race-reroll', permissions: ['race.reroll-role-perm'] });
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['race-reroll'], permissions: ['race.reroll', 'race.reroll-kept'] });
    const res = await interleave(
      () => h.call('keys.rerollKey', { keyId, expiration: 0 }),
      async () => {
        await ok('permissions.deleteRole', { role: 'race-reroll' });
        await ok('permissions.deletePermission', { permission: 'race.reroll' });
      },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rolled = res.body.data;
    expect(await keyOf(rolled.keyId)).toMatchObject({ permissions: ['race.reroll-kept'] });
    expect(await keyOf(rolled.keyId)).not.toHaveProperty('roles');
    await ok('permissions.createRole', { name: 'race-reroll', permissions: ['race.reroll-role-perm'] });
    await ok('permissions.createPermission', { name: 'race.reroll', slug: 'race.reroll' });
    expect((await h.verify(rolled.key, { permissions: 'race.reroll-kept' })).body.data.code).toBe('VALID');
    expect((await h.verify(rolled.key, { permissions: 'race.reroll' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await h.verify(rolled.key, { permissions: 'race.reroll-role-perm' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('createKey first, then delete: the permission and the role leave the new key', async () => {
    await ok('permissions.createRole', { name: 'race-created', permissions: ['race.created-role-perm'] });
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['race-created'], permissions: ['race.created'] });
    expect((await h.verify(key, { permissions: 'race.created AND race.created-role-perm' })).body.data.code).toBe('VALID');
    await ok('permissions.deletePermission', { permission: 'race.created' });
    await ok('permissions.deleteRole', { role: 'race-created' });
    const after = await keyOf(keyId);
    expect(after).not.toHaveProperty('permissions');
    expect(after).not.toHaveProperty('roles');
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
