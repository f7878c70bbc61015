/**
 * KeyStore.insertAttaching in Redis (src/storage/redis/insert-attaching.ts) at every step of a
 * permission or role delete (mark its record, strip every key of the workspace, remove the record),
 * and the delete at every step of the insert (write the key, read the records again), on the
 * standalone server and on the cluster. Whatever the order, no stored key ends up naming the
 * deleted slug or role name: 'refuse' leaves no key at all, 'omit' leaves the key without it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/redis/client.js';
import type { StorageKeys } from '../../src/storage/redis/keys.js';
import type { RedisPermissionStore } from '../../src/storage/redis/permissions.js';
import type { RedisRoleStore } from '../../src/storage/redis/roles.js';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import type { Attaching, IfDeleted, InsertOutcome } from '../../src/storage/types.js';
import { key, permission, role } from './rbac-records.js';
import { openPausingStores, type CountingIo, type PausingKeyStore } from './redis-pausing-stores.js';
import type { Topology } from './redis-storage-runner.js';

const NONE: Attaching = { permissions: [], roles: [] };
const naming = (attaching: Attaching): KeyRecord => key({ permissions: attaching.permissions.map((p) => p.slug), roles: attaching.roles.map((r) => r.name) });

describe.each<Topology>(['standalone', 'cluster'])('redis %s: a new key while a delete is under way', (topology) => {
  let client: RedisClient;
  let k: StorageKeys;
  let io: CountingIo;
  let keys: PausingKeyStore;
  let permissions: RedisPermissionStore;
  let roles: RedisRoleStore;
  beforeEach(async () => {
    ({ client, k, io, keys, permissions, roles } = await openPausingStores(topology));
  });
  afterEach(async () => { await client.quit(); });

  const insertOne = async (record: KeyRecord, attaching: Attaching, ifDeleted: IfDeleted): Promise<InsertOutcome> =>
    (await keys.insertAttaching([{ record, credits: null, attaching }], ifDeleted))[0]!;
  /** Not by id, not by hash, not even a leftover entry in its API's listing. */
  const expectAbsent = async (record: KeyRecord): Promise<void> => {
    expect(await keys.get(record.id)).toBeNull();
    expect(await keys.findByHash(record.hash)).toBeNull();
    expect(await client.zscore(k.keysOfApi(record.apiId), record.id)).toBeNull();
  };

  it("looked up before the delete, inserted after its strip passed: 'refuse' removes the key again; the slug created again finds none", async () => {
    await permissions.insert(permission('race.new'));
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.new'))!;
    const deleting = await keys.stopDelete('after', () => permissions.delete(looked.id));
    const attaching = { permissions: [looked], roles: [] };
    const record = naming(attaching);
    expect(await insertOne(record, attaching, 'refuse')).toEqual({ kind: 'deleted', deleted: attaching });
    expect(await keys.get(record.id)).toBeNull();
    expect(await keys.findByHash(record.hash)).toBeNull();
    expect(await deleting.open()).toBe(true);
    await permissions.insert(permission('race.new'));
    expect(await keys.get(record.id)).toBeNull();
  });

  it("looked up before the delete, inserted after its strip passed: 'omit' takes the slug off again and keeps the rest", async () => {
    const live = permission('race.live');
    await permissions.insert(live);
    await permissions.insert(permission('race.omit'));
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.omit'))!;
    const deleting = await keys.stopDelete('after', () => permissions.delete(looked.id));
    const attaching = { permissions: [live, looked], roles: [] };
    const record = naming(attaching);
    expect(await insertOne(record, attaching, 'omit')).toEqual({ kind: 'inserted', omitted: { permissions: [looked], roles: [] } });
    expect((await keys.get(record.id))!.permissions).toEqual(['race.live']);
    expect(await deleting.open()).toBe(true);
    await permissions.insert(permission('race.omit'));
    expect((await keys.findByHash(record.hash))!.permissions).toEqual(['race.live']);
  });

  it.each<IfDeleted>(['refuse', 'omit'])("a role looked up before the delete, inserted after its mark and before its strip ('%s'): not kept, and the strip finds nothing", async (ifDeleted) => {
    await roles.insert(role('Marked'));
    const looked = (await roles.findByName(WORKSPACE_ID, 'marked'))!;
    const deleting = await keys.stopDelete('before', () => roles.delete(looked.id));
    const attaching = { permissions: [], roles: [looked] };
    const record = naming(attaching);
    const outcome = await insertOne(record, attaching, ifDeleted);
    if (ifDeleted === 'refuse') {
      expect(outcome).toEqual({ kind: 'deleted', deleted: attaching });
      await expectAbsent(record);
    } else {
      expect(outcome).toEqual({ kind: 'inserted', omitted: attaching });
      expect((await keys.get(record.id))!.roles).toEqual([]);
    }
    expect(await deleting.open()).toBe(true);
    expect(await roles.get(looked.id)).toBeNull();
    if (ifDeleted === 'omit') expect((await keys.get(record.id))!.roles).toEqual([]);
  });

  it.each<IfDeleted>(['refuse', 'omit'])("looked up while the delete is under way ('%s'): the mark is seen at once, so nothing is read again; refused without a write, or written without it", async (ifDeleted) => {
    const p = permission('race.during');
    await permissions.insert(p);
    const deleting = await keys.stopDelete('before', () => permissions.delete(p.id));
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.during'))!;
    const attaching = { permissions: [looked], roles: [] };
    const record = naming(attaching);
    io.reads.clear();
    const outcome = await insertOne(record, attaching, ifDeleted);
    expect(io.reads.get(k.permission(p.id))).toBeUndefined();
    if (ifDeleted === 'refuse') {
      expect(outcome).toEqual({ kind: 'deleted', deleted: attaching });
      await expectAbsent(record);
    } else {
      expect(outcome).toEqual({ kind: 'inserted', omitted: attaching });
      expect((await keys.get(record.id))!.permissions).toEqual([]);
    }
    expect(await deleting.open()).toBe(true);
  });

  it.each<IfDeleted>(['refuse', 'omit'])("the whole delete between the insert's write and its re-read ('%s'): the strip takes the slug off, the re-read sees the record gone", async (ifDeleted) => {
    const p = permission('race.between');
    await permissions.insert(p);
    const attaching = { permissions: [p], roles: [] };
    const record = naming(attaching);
    const written = keys.stopAfterNextInsert();
    const inserting = insertOne(record, attaching, ifDeleted);
    await written.reached;
    expect(await permissions.delete(p.id)).toBe(true);
    expect((await keys.get(record.id))!.permissions).toEqual([]);
    written.open();
    if (ifDeleted === 'refuse') {
      expect(await inserting).toEqual({ kind: 'deleted', deleted: attaching });
      await expectAbsent(record);
    } else {
      expect(await inserting).toEqual({ kind: 'inserted', omitted: attaching });
      expect((await keys.get(record.id))!.permissions).toEqual([]);
    }
  });

  it("a delete stopped for good after its mark and strip (a crash): the new key does not keep the slug, and a retried delete finishes", async () => {
    const p = permission('race.crash');
    await permissions.insert(p);
    const looked = (await permissions.findBySlug(WORKSPACE_ID, 'race.crash'))!;
    // Never opened: the delete stays where a crash would have left it.
    await keys.stopDelete('after', () => permissions.delete(p.id));
    const attaching = { permissions: [looked], roles: [] };
    const record = naming(attaching);
    expect(await insertOne(record, attaching, 'omit')).toEqual({ kind: 'inserted', omitted: attaching });
    expect((await keys.get(record.id))!.permissions).toEqual([]);
    expect(await permissions.delete(p.id)).toBe(true);
    await permissions.insert(permission('race.crash'));
    expect((await keys.get(record.id))!.permissions).toEqual([]);
  });

  it('many new keys at once (keys.migrateKeys): the records they name are read again once each, not once per key', async () => {
    const shared = permission('race.shared');
    const kept = role('kept');
    await permissions.insert(shared);
    await roles.insert(kept);
    const deleting = await keys.stopDelete('after', () => permissions.delete(shared.id));
    const attaching = { permissions: [shared], roles: [kept] };
    const records = Array.from({ length: 20 }, () => naming(attaching));
    io.reads.clear();
    const outcomes = await keys.insertAttaching(records.map((record) => ({ record, credits: null, attaching })), 'omit');
    expect(outcomes).toEqual(records.map(() => ({ kind: 'inserted', omitted: { permissions: [shared], roles: [] } })));
    expect(io.reads.get(k.permission(shared.id))).toBe(1);
    expect(io.reads.get(k.role(kept.id))).toBe(1);
    for (const record of records) expect(await keys.get(record.id)).toMatchObject({ permissions: [], roles: ['kept'] });
    expect(await deleting.open()).toBe(true);
  });

  it('keys that attach nothing read no permission or role', async () => {
    const records = [key({ permissions: ['unchecked'] }), key()];
    io.reads.clear();
    const outcomes = await keys.insertAttaching(records.map((record) => ({ record, credits: null, attaching: NONE })), 'refuse');
    expect(outcomes).toEqual([{ kind: 'inserted', omitted: NONE }, { kind: 'inserted', omitted: NONE }]);
    expect([...io.reads.keys()].filter((read) => /:(perm|role):\{/.test(read))).toEqual([]);
  });
});
