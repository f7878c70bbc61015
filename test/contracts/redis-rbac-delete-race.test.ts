/**
 * In Redis a permission or role delete runs in steps (mark its record, strip every key of the
 * workspace, remove the record), so an attach can write its key between them. A key store that
 * stops the delete just before or just after its strip of the keys (redis-pausing-stores.ts) lets
 * the attach run there, on the standalone server and on the cluster. Whatever the order, the key ends up without the
 * deleted slug or role name (src/storage/redis/attach.ts, deleting.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/redis/client.js';
import type { RedisPermissionStore } from '../../src/storage/redis/permissions.js';
import type { RedisRoleStore } from '../../src/storage/redis/roles.js';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import { key, permission, role } from './rbac-records.js';
import { openPausingStores, type PausingKeyStore } from './redis-pausing-stores.js';
import type { Topology } from './redis-storage-runner.js';

const addSlug = (slug: string) => (current: KeyRecord): KeyRecord => ({ ...current, permissions: [...current.permissions, slug] });
const addRole = (name: string) => (current: KeyRecord): KeyRecord => ({ ...current, roles: [...current.roles, name] });

describe.each<Topology>(['standalone', 'cluster'])('redis %s: an attach while a delete is under way', (topology) => {
  let client: RedisClient;
  let keys: PausingKeyStore;
  let permissions: RedisPermissionStore;
  let roles: RedisRoleStore;

  beforeEach(async () => {
    ({ client, keys, permissions, roles } = await openPausingStores(topology));
  });
  afterEach(async () => { await client.quit(); });

  it('looked up before the delete, written after its strip passed the key: the attach takes the slug off again', async () => {
    await permissions.insert(permission('race.read'));
    const k = key({ permissions: ['kept'] });
    await keys.insert(k, null);
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.read'))!;
    const deleting = await keys.stopDelete('after', () => permissions.delete(looked.id));
    const outcome = await keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug));
    expect(outcome).toEqual({ kind: 'deleted', deleted: { permissions: [looked], roles: [] } });
    expect((await keys.get(k.id))!.permissions).toEqual(['kept']);
    expect(await deleting.open()).toBe(true);
    expect((await keys.get(k.id))!.permissions).toEqual(['kept']);
    expect(await permissions.get(looked.id)).toBeNull();
  });

  it('looked up before the delete, written after its mark and before its strip: taken off again, and the strip finds nothing', async () => {
    await permissions.insert(permission('race.early'));
    const k = key();
    await keys.insert(k, null);
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.early'))!;
    const deleting = await keys.stopDelete('before', () => permissions.delete(looked.id));
    expect(await keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug))).toMatchObject({ kind: 'deleted' });
    expect((await keys.get(k.id))!.permissions).toEqual([]);
    expect(await deleting.open()).toBe(true);
    expect((await keys.get(k.id))!.permissions).toEqual([]);
  });

  it('looked up while the delete is under way: still readable as before, and the attach is refused without a write', async () => {
    const p = permission('race.during');
    await permissions.insert(p);
    const k = key();
    await keys.insert(k, null);
    const deleting = await keys.stopDelete('before', () => permissions.delete(p.id));
    // Readers see the permission until its delete finishes, as they did before the mark existed.
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.during'))!;
    expect(looked).toMatchObject(p);
    expect((await permissions.list(WORKSPACE_ID, { limit: 10 })).map((r) => r.id)).toEqual([p.id]);
    expect(await keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug))).toMatchObject({ kind: 'deleted' });
    expect(await keys.get(k.id)).toEqual(k);
    expect(await deleting.open()).toBe(true);
  });

  it('a role looked up before the delete, written after its strip passed the key: taken off again; the name created again is not granted', async () => {
    const p = permission('race.admin');
    await permissions.insert(p);
    await roles.insert(role('Racer', [p.id]));
    const k = key({ roles: ['kept'] });
    await keys.insert(k, null);
    const looked = (await roles.findByName(WORKSPACE_ID, 'racer'))!;
    const deleting = await keys.stopDelete('after', () => roles.delete(looked.id));
    const outcome = await keys.modifyAttaching(k.id, { permissions: [], roles: [looked] }, addRole(looked.name));
    expect(outcome).toEqual({ kind: 'deleted', deleted: { permissions: [], roles: [looked] } });
    expect(await deleting.open()).toBe(true);
    await roles.insert(role('racer', [p.id]));
    expect((await keys.get(k.id))!.roles).toEqual(['kept']);
  });

  it('a delete stopped for good after its mark and strip (a crash): the attach is refused, and a retried delete finishes', async () => {
    const p = permission('race.crash');
    await permissions.insert(p);
    const k = key();
    await keys.insert(k, null);
    // Never opened: the delete stays where a crash would have left it.
    await keys.stopDelete('after', () => permissions.delete(p.id));
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.crash'))!;
    expect(await keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug))).toMatchObject({ kind: 'deleted' });
    expect(await permissions.delete(p.id)).toBe(true);
    expect(await permissions.findBySlug(WORKSPACE_ID, 'race.crash')).toBeNull();
    await permissions.insert(permission('race.crash'));
    expect((await keys.get(k.id))!.permissions).toEqual([]);
  });
});
