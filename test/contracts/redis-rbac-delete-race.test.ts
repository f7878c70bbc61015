/**
 * In Redis a permission or role delete runs in steps (mark its record, strip every key of the
 * workspace, remove the record), so an attach can write its key between them. A key store that
 * stops the delete just before or just after its strip of the keys lets the attach run there, on
 * the standalone server and on the cluster. Whatever the order, the key ends up without the
 * deleted slug or role name (src/storage/redis/attach.ts, deleting.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/redis/client.js';
import { RedisKeyStore } from '../../src/storage/redis/key-store.js';
import { storageKeys } from '../../src/storage/redis/keys.js';
import { RedisPermissionStore } from '../../src/storage/redis/permissions.js';
import { RecordIo } from '../../src/storage/redis/record-io.js';
import { RedisRoleStore } from '../../src/storage/redis/roles.js';
import { UniqueIndex } from '../../src/storage/redis/unique-index.js';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import { gate, type Gate } from '../support/gate.js';
import { key, permission, role } from './rbac-records.js';
import { connect, freshPrefix, type Topology } from './redis-storage-runner.js';

/** Stops the next rewriteWorkspace (a delete's strip of the keys) before or after it runs. */
class PausingKeyStore extends RedisKeyStore {
  stop: { readonly at: 'before' | 'after'; readonly gate: Gate } | null = null;

  override async rewriteWorkspace(workspaceId: string, change: (key: KeyRecord) => KeyRecord | null): Promise<void> {
    const stop = this.stop;
    this.stop = null;
    if (stop?.at === 'before') await stop.gate.pass();
    await super.rewriteWorkspace(workspaceId, change);
    if (stop?.at === 'after') await stop.gate.pass();
  }
}

const addSlug = (slug: string) => (current: KeyRecord): KeyRecord => ({ ...current, permissions: [...current.permissions, slug] });
const addRole = (name: string) => (current: KeyRecord): KeyRecord => ({ ...current, roles: [...current.roles, name] });

describe.each<Topology>(['standalone', 'cluster'])('redis %s: an attach while a delete is under way', (topology) => {
  let client: RedisClient;
  let keys: PausingKeyStore;
  let permissions: RedisPermissionStore;
  let roles: RedisRoleStore;
  /** Stops the next delete at `at` and resolves once it waits there. */
  const stopDelete = async (at: 'before' | 'after', run: () => Promise<boolean>): Promise<{ open(): Promise<boolean> }> => {
    const stopped = gate();
    keys.stop = { at, gate: stopped };
    const deleting = run();
    await stopped.reached;
    return { open: () => { stopped.open(); return deleting; } };
  };

  beforeEach(async () => {
    client = await connect(topology);
    const k = storageKeys(freshPrefix());
    const io = new RecordIo(client);
    const index = new UniqueIndex(client);
    keys = new PausingKeyStore(client, k, io, index, Date.now);
    permissions = new RedisPermissionStore(client, k, io, index, keys);
    roles = new RedisRoleStore(client, k, io, index, keys);
  });
  afterEach(async () => { await client.quit(); });

  it('looked up before the delete, written after its strip passed the key: the attach takes the slug off again', async () => {
    await permissions.insert(permission('race.read'));
    const k = key({ permissions: ['kept'] });
    await keys.insert(k, null);
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.read'))!;
    const deleting = await stopDelete('after', () => permissions.delete(looked.id));
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
    const deleting = await stopDelete('before', () => permissions.delete(looked.id));
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
    const deleting = await stopDelete('before', () => permissions.delete(p.id));
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
    const deleting = await stopDelete('after', () => roles.delete(looked.id));
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
    await stopDelete('after', () => permissions.delete(p.id));
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.crash'))!;
    expect(await keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug))).toMatchObject({ kind: 'deleted' });
    expect(await permissions.delete(p.id)).toBe(true);
    expect(await permissions.findBySlug(WORKSPACE_ID, 'race.crash')).toBeNull();
    await permissions.insert(permission('race.crash'));
    expect((await keys.get(k.id))!.permissions).toEqual([]);
  });
});
