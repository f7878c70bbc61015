/**
 * Contract of KeyStore.insertAttaching against PermissionStore.delete and RoleStore.delete
 * (src/storage/types.ts), as delete-attach-race.contract.ts holds modifyAttaching to it: a new key
 * never names a permission or role deleted after the caller looked it up, and a slug or name
 * created again afterwards is not granted to it. 'refuse' stores no such key; 'omit' stores it
 * without them. The steps are run by hand: the lookup, the whole delete, the insert; and the
 * reverse order. Every backend runs it:
 *
 *   describeDeleteInsertRace('lmdb', () => openLmdbStorage(dir), (s) => s.close())
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import { DuplicateError, type Attaching, type Storage } from '../../src/storage/types.js';
import { key, permission, role } from './rbac-records.js';

const naming = (attaching: Attaching, overrides: Partial<KeyRecord> = {}): KeyRecord =>
  key({ permissions: attaching.permissions.map((p) => p.slug), roles: attaching.roles.map((r) => r.name), ...overrides });

export function describeDeleteInsertRace(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> = (s) => s.close(),
): void {
  describe(`${impl} delete vs insert contract`, () => {
    let s: Storage;
    beforeEach(async () => { s = await open(); });
    afterEach(async () => { await close(s); });

    /** The key is nowhere: not by id, not by hash, not in its API's listing. */
    const expectAbsent = async (k: KeyRecord): Promise<void> => {
      expect(await s.keys.get(k.id)).toBeNull();
      expect(await s.keys.findByHash(k.hash)).toBeNull();
      expect((await s.keys.listByApi(k.apiId, { limit: 100 })).map((listed) => listed.id)).not.toContain(k.id);
    };

    it("'refuse': a permission deleted after the lookup stores no key, and its slug created again finds none", async () => {
      await s.permissions.insert(permission('race.new'));
      const looked = (await s.permissions.findBySlug(WORKSPACE_ID, 'race.new'))!;
      expect(await s.permissions.delete(looked.id)).toBe(true);
      const attaching = { permissions: [looked], roles: [] };
      const k = naming(attaching);
      expect(await s.keys.insertAttaching([{ record: k, credits: { remaining: 5 }, attaching }], 'refuse'))
        .toEqual([{ kind: 'deleted', deleted: attaching }]);
      await expectAbsent(k);
      await s.permissions.insert(permission('race.new'));
      await expectAbsent(k);
    });

    it("'refuse': a role deleted after the lookup stores no key; a live permission beside it is not reported", async () => {
      const p = permission('race.beside');
      await s.permissions.insert(p);
      await s.roles.insert(role('Newcomer', [p.id]));
      const looked = (await s.roles.findByName(WORKSPACE_ID, 'newcomer'))!;
      expect(await s.roles.delete(looked.id)).toBe(true);
      const k = naming({ permissions: [p], roles: [looked] });
      const outcome = await s.keys.insertAttaching([{ record: k, credits: null, attaching: { permissions: [p], roles: [looked] } }], 'refuse');
      expect(outcome).toEqual([{ kind: 'deleted', deleted: { permissions: [], roles: [looked] } }]);
      await expectAbsent(k);
    });

    it("'omit': the key is stored without the deleted permission and role, keeps the live ones, and is not given them when created again", async () => {
      const live = permission('race.live');
      const gone = permission('race.gone');
      const goneRole = role('gone-role');
      for (const p of [live, gone]) await s.permissions.insert(p);
      await s.roles.insert(goneRole);
      expect(await s.permissions.delete(gone.id)).toBe(true);
      expect(await s.roles.delete(goneRole.id)).toBe(true);
      const attaching = { permissions: [gone, live], roles: [goneRole] };
      const k = naming(attaching);
      expect(await s.keys.insertAttaching([{ record: k, credits: { remaining: 3 }, attaching }], 'omit'))
        .toEqual([{ kind: 'inserted', omitted: { permissions: [gone], roles: [goneRole] } }]);
      expect(await s.keys.get(k.id)).toEqual({ ...k, permissions: ['race.live'], roles: [], hasCredits: true });
      expect(await s.keys.getCredits(k.id)).toEqual({ remaining: 3 });
      await s.permissions.insert(permission('race.gone'));
      await s.roles.insert(role('gone-role'));
      expect(await s.keys.findByHash(k.hash)).toMatchObject({ permissions: ['race.live'], roles: [] });
    });

    it("'omit' with several keys: one outcome each, in order; a hash repeated in the call is a duplicate after the first", async () => {
      const gone = permission('race.shared');
      const kept = role('kept-role');
      await s.permissions.insert(gone);
      await s.roles.insert(kept);
      expect(await s.permissions.delete(gone.id)).toBe(true);
      const attaching = { permissions: [gone], roles: [kept] };
      const first = naming(attaching);
      const second = naming(attaching);
      const plain = key();
      const repeated = naming(attaching, { hash: first.hash });
      const outcomes = await s.keys.insertAttaching([first, second, plain, repeated].map((record) => ({
        record, credits: null, attaching: record === plain ? { permissions: [], roles: [] } : attaching,
      })), 'omit');
      expect(outcomes.slice(0, 3)).toEqual([
        { kind: 'inserted', omitted: { permissions: [gone], roles: [] } },
        { kind: 'inserted', omitted: { permissions: [gone], roles: [] } },
        { kind: 'inserted', omitted: { permissions: [], roles: [] } },
      ]);
      expect(outcomes[3]).toMatchObject({ kind: 'duplicate', error: expect.any(DuplicateError) });
      for (const k of [first, second]) expect(await s.keys.get(k.id)).toMatchObject({ permissions: [], roles: ['kept-role'] });
      expect(await s.keys.get(plain.id)).toEqual(plain);
      expect(await s.keys.get(repeated.id)).toBeNull();
      expect((await s.keys.findByHash(first.hash))!.id).toBe(first.id);
    });

    it.each(['refuse', 'omit'] as const)("'%s': a permission and a role attached before the delete began are taken off by the delete", async (ifDeleted) => {
      const p = permission('race.first');
      const r = role('first-role');
      await s.permissions.insert(p);
      await s.roles.insert(r);
      const attaching = { permissions: [p], roles: [r] };
      const k = naming(attaching);
      expect(await s.keys.insertAttaching([{ record: k, credits: null, attaching }], ifDeleted))
        .toEqual([{ kind: 'inserted', omitted: { permissions: [], roles: [] } }]);
      expect(await s.keys.get(k.id)).toEqual(k);
      expect(await s.permissions.delete(p.id)).toBe(true);
      expect(await s.roles.delete(r.id)).toBe(true);
      expect(await s.keys.get(k.id)).toMatchObject({ permissions: [], roles: [] });
    });

    it.each(['refuse', 'omit'] as const)("'%s': attaching nothing is insert, a taken hash a duplicate", async (ifDeleted) => {
      const k = key({ permissions: ['unchecked'] });
      const none = { permissions: [], roles: [] };
      expect(await s.keys.insertAttaching([{ record: k, credits: null, attaching: none }], ifDeleted)).toEqual([{ kind: 'inserted', omitted: none }]);
      expect(await s.keys.get(k.id)).toEqual(k);
      const again = await s.keys.insertAttaching([{ record: key({ hash: k.hash }), credits: null, attaching: none }], ifDeleted);
      expect(again).toEqual([{ kind: 'duplicate', error: expect.any(DuplicateError) }]);
      expect(await s.keys.insertAttaching([], ifDeleted)).toEqual([]);
    });
  });
}
