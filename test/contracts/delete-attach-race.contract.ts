/**
 * Contract of KeyStore.modifyAttaching against PermissionStore.delete and RoleStore.delete
 * (src/storage/types.ts): whichever order an attach and a delete run in, the key never ends up
 * naming a permission or role that no longer exists, and a slug or name created again afterwards
 * is not granted to it. The attach's steps are run by hand: its lookup, then the whole delete, then
 * its write; and the reverse order. Every backend runs it:
 *
 *   describeDeleteAttachRace('lmdb', () => openLmdbStorage(dir), (s) => s.close())
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID, type KeyRecord } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';
import { key, permission, role } from './rbac-records.js';

const addSlug = (slug: string) => (current: KeyRecord): KeyRecord => ({ ...current, permissions: [...current.permissions, slug] });
const addRole = (name: string) => (current: KeyRecord): KeyRecord => ({ ...current, roles: [...current.roles, name] });

export function describeDeleteAttachRace(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> = (s) => s.close(),
): void {
  describe(`${impl} delete vs attach contract`, () => {
    let s: Storage;
    beforeEach(async () => { s = await open(); });
    afterEach(async () => { await close(s); });

    it('a permission deleted after the attach looked it up is not attached, and its slug created again is not granted', async () => {
      await s.permissions.insert(permission('race.read'));
      const k = key({ permissions: ['kept'] });
      await s.keys.insert(k, null);
      const looked = (await s.permissions.findBySlug(WORKSPACE_ID, 'race.read'))!;
      expect(await s.permissions.delete(looked.id)).toBe(true);
      const outcome = await s.keys.modifyAttaching(k.id, { permissions: [looked], roles: [] }, addSlug(looked.slug));
      expect(outcome).toEqual({ kind: 'deleted', deleted: { permissions: [looked], roles: [] } });
      expect((await s.keys.get(k.id))!.permissions).toEqual(['kept']);
      const again = permission('RACE.read');
      await s.permissions.insert(again);
      expect(await s.permissions.findBySlug(WORKSPACE_ID, 'race.read')).toEqual(again);
      expect((await s.keys.get(k.id))!.permissions).toEqual(['kept']);
    });

    it('a role deleted after the attach looked it up is not attached, and its name created again is not granted', async () => {
      const p = permission('race.admin');
      await s.permissions.insert(p);
      await s.roles.insert(role('Racer', [p.id]));
      const k = key({ roles: ['kept'] });
      await s.keys.insert(k, null);
      const looked = (await s.roles.findByName(WORKSPACE_ID, 'racer'))!;
      expect(await s.roles.delete(looked.id)).toBe(true);
      const outcome = await s.keys.modifyAttaching(k.id, { permissions: [], roles: [looked] }, addRole(looked.name));
      expect(outcome).toEqual({ kind: 'deleted', deleted: { permissions: [], roles: [looked] } });
      expect((await s.keys.get(k.id))!.roles).toEqual(['kept']);
      await s.roles.insert(role('racer', [p.id]));
      expect((await s.keys.get(k.id))!.roles).toEqual(['kept']);
    });

    it('a change naming a live permission and a deleted role reports only the role, and the key does not name it', async () => {
      const p = permission('race.live');
      const r = role('gone');
      await s.permissions.insert(p);
      await s.roles.insert(r);
      const k = key();
      await s.keys.insert(k, null);
      expect(await s.roles.delete(r.id)).toBe(true);
      const outcome = await s.keys.modifyAttaching(k.id, { permissions: [p], roles: [r] }, (current) => addRole(r.name)(addSlug(p.slug)(current)));
      expect(outcome).toEqual({ kind: 'deleted', deleted: { permissions: [], roles: [r] } });
      expect((await s.keys.get(k.id))!.roles).toEqual([]);
    });

    it('a permission attached before the delete began is taken off by the delete', async () => {
      const p = permission('race.write');
      await s.permissions.insert(p);
      const k = key();
      await s.keys.insert(k, null);
      const outcome = await s.keys.modifyAttaching(k.id, { permissions: [p], roles: [] }, addSlug(p.slug));
      expect(outcome).toMatchObject({ kind: 'changed', key: { id: k.id, permissions: ['race.write'] } });
      expect(await s.permissions.delete(p.id)).toBe(true);
      expect((await s.keys.get(k.id))!.permissions).toEqual([]);
    });

    it('a role attached before the delete began is taken off by the delete', async () => {
      const r = role('early');
      await s.roles.insert(r);
      const k = key();
      await s.keys.insert(k, null);
      expect(await s.keys.modifyAttaching(k.id, { permissions: [], roles: [r] }, addRole(r.name))).toMatchObject({ kind: 'changed', key: { roles: ['early'] } });
      expect(await s.roles.delete(r.id)).toBe(true);
      expect((await s.keys.get(k.id))!.roles).toEqual([]);
    });

    it('attaching nothing is modify; an unknown key is unknownKey', async () => {
      const k = key({ permissions: ['a', 'b'] });
      await s.keys.insert(k, null);
      const outcome = await s.keys.modifyAttaching(k.id, { permissions: [], roles: [] }, (current) => ({ ...current, permissions: ['b'] }));
      expect(outcome).toEqual({ kind: 'changed', key: { ...k, permissions: ['b'] } });
      expect(await s.keys.get(k.id)).toEqual({ ...k, permissions: ['b'] });
      expect(await s.keys.modifyAttaching('key_missing', { permissions: [], roles: [] }, (current) => current)).toEqual({ kind: 'unknownKey' });
    });
  });
}
