/**
 * Behavioural contract of the RBAC stores (PermissionStore, RoleStore in src/storage/types.ts).
 * Every backend runs it:
 *
 *   describeRbacStorage('lmdb', () => openLmdbStorage(dir), (s) => s.close())
 *
 * `open` gives a fresh, empty storage per test; `close` tears it down (default: `storage.close()`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import { DuplicateError, type Storage } from '../../src/storage/types.js';
import { key, permission, role } from './rbac-records.js';

const OTHER_WORKSPACE = 'ws_other';

export function describeRbacStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> = (s) => s.close(),
): void {
  describe(`${impl} rbac storage contract`, () => {
    let s: Storage;
    beforeEach(async () => { s = await open(); });
    afterEach(async () => { await close(s); });

    describe('permissions', () => {
      it('insert then get, findBySlug and find (by id or slug) return the record', async () => {
        const p = permission('docs.read', { description: 'd' });
        await s.permissions.insert(p);
        expect(await s.permissions.get(p.id)).toEqual(p);
        expect(await s.permissions.findBySlug(WORKSPACE_ID, 'docs.read')).toEqual(p);
        expect(await s.permissions.find(WORKSPACE_ID, p.id)).toEqual(p);
        expect(await s.permissions.find(WORKSPACE_ID, 'docs.read')).toEqual(p);
        expect(await s.permissions.get('perm_missing')).toBeNull();
        expect(await s.permissions.find(WORKSPACE_ID, 'nope')).toBeNull();
      });

      it('slugs are unique per workspace case-insensitively, and the lookup folds case', async () => {
        const p = permission('Admin');
        await s.permissions.insert(p);
        await expect(s.permissions.insert(permission('admin'))).rejects.toBeInstanceOf(DuplicateError);
        await expect(s.permissions.insert(permission('ADMIN'))).rejects.toThrow(/slug/);
        expect(await s.permissions.findBySlug(WORKSPACE_ID, 'aDmIn')).toEqual(p);
        // Another workspace has its own slugs and cannot see this one.
        await s.permissions.insert(permission('admin', { workspaceId: OTHER_WORKSPACE }));
        expect(await s.permissions.find(OTHER_WORKSPACE, p.id)).toBeNull();
      });

      it('getOrCreateMany creates only missing slugs, keeps order, collapses case duplicates', async () => {
        const existing = permission('a.read');
        await s.permissions.insert(existing);
        let made = 0;
        const got = await s.permissions.getOrCreateMany(WORKSPACE_ID, ['b.write', 'A.READ', 'b.WRITE', 'c'], (slug) => { made++; return permission(slug); });
        expect(got.map((p) => p.slug)).toEqual(['b.write', 'a.read', 'c']);
        expect(got[1]).toEqual(existing);
        expect(made).toBe(2);
        expect(await s.permissions.findBySlug(WORKSPACE_ID, 'c')).toEqual(got[2]);
        const again = await s.permissions.getOrCreateMany(WORKSPACE_ID, ['c', 'b.write'], () => { throw new Error('must not create'); });
        expect(again.map((p) => p.id)).toEqual([got[2]!.id, got[0]!.id]);
      });

      it('concurrent getOrCreateMany calls share one record per slug', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, () =>
          s.permissions.getOrCreateMany(WORKSPACE_ID, ['race.slug'], (slug) => permission(slug))));
        expect(new Set(results.map((r) => r[0]!.id)).size).toBe(1);
      });

      it('list: id order, inclusive cursor, limit, workspace filter, search over id/name/slug/description', async () => {
        const records = [
          permission('x.one', { name: 'Invoices' }), permission('x.two'), permission('x.three', { description: 'Refunds' }),
        ];
        for (const r of records) await s.permissions.insert(r);
        await s.permissions.insert(permission('x.other', { workspaceId: OTHER_WORKSPACE }));
        const ids = records.map((r) => r.id).sort();
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10 })).map((r) => r.id)).toEqual(ids);
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 2 })).map((r) => r.id)).toEqual(ids.slice(0, 2));
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10, cursor: ids[1] })).map((r) => r.id)).toEqual(ids.slice(1));
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10, search: 'INVOICE' })).map((r) => r.slug)).toEqual(['x.one']);
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10, search: 'refund' })).map((r) => r.slug)).toEqual(['x.three']);
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10, search: 'X.TWO' })).map((r) => r.slug)).toEqual(['x.two']);
        expect((await s.permissions.list(WORKSPACE_ID, { limit: 10, search: records[0]!.id })).map((r) => r.slug)).toEqual(['x.one']);
        expect((await s.permissions.list(OTHER_WORKSPACE, { limit: 10 })).map((r) => r.slug)).toEqual(['x.other']);
      });

      it('delete is hard: frees the slug, leaves roles and strips keys (case-insensitively); false when unknown', async () => {
        const p = permission('Docs.Read');
        const q = permission('docs.write');
        await s.permissions.insert(p);
        await s.permissions.insert(q);
        const r = role('editor', [p.id, q.id]);
        await s.roles.insert(r);
        const k = key({ permissions: ['docs.read', 'docs.write'] });
        const other = key({ workspaceId: OTHER_WORKSPACE, permissions: ['docs.read'] });
        await s.keys.insert(k, null);
        await s.keys.insert(other, null);

        expect(await s.permissions.delete(p.id)).toBe(true);
        expect(await s.permissions.get(p.id)).toBeNull();
        expect(await s.permissions.findBySlug(WORKSPACE_ID, 'docs.read')).toBeNull();
        expect((await s.roles.get(r.id))!.permissionIds).toEqual([q.id]);
        expect((await s.keys.get(k.id))!.permissions).toEqual(['docs.write']);
        expect((await s.keys.get(other.id))!.permissions).toEqual(['docs.read']);
        expect(await s.roles.slugsOfRoles(WORKSPACE_ID, ['editor'])).toEqual(['docs.write']);
        await s.permissions.insert(permission('docs.read'));
        expect(await s.permissions.delete(p.id)).toBe(false);
      });
    });

    describe('roles', () => {
      it('insert then get, findByName and find (by id or name) return the record', async () => {
        const r = role('Support', [], { description: 'helps' });
        await s.roles.insert(r);
        expect(await s.roles.get(r.id)).toEqual(r);
        expect(await s.roles.findByName(WORKSPACE_ID, 'support')).toEqual(r);
        expect(await s.roles.find(WORKSPACE_ID, r.id)).toEqual(r);
        expect(await s.roles.find(WORKSPACE_ID, 'SUPPORT')).toEqual(r);
        expect(await s.roles.find(OTHER_WORKSPACE, r.id)).toBeNull();
        expect(await s.roles.find(WORKSPACE_ID, 'nobody')).toBeNull();
      });

      it('names are unique per workspace case-insensitively', async () => {
        await s.roles.insert(role('Admin'));
        await expect(s.roles.insert(role('admin'))).rejects.toBeInstanceOf(DuplicateError);
        await expect(s.roles.insert(role('ADMIN'))).rejects.toThrow(/name/);
        await s.roles.insert(role('admin', [], { workspaceId: OTHER_WORKSPACE }));
      });

      it('setPermissions replaces the set (de-duplicated); null for an unknown role', async () => {
        const [a, b, c] = [permission('a'), permission('b'), permission('c')];
        for (const p of [a, b, c]) await s.permissions.insert(p);
        const r = role('r', [a.id]);
        await s.roles.insert(r);
        const updated = await s.roles.setPermissions(r.id, [c.id, b.id, c.id]);
        expect(updated!.permissionIds).toEqual([c.id, b.id]);
        expect((await s.roles.get(r.id))!.permissionIds).toEqual([c.id, b.id]);
        expect((await s.roles.permissionsOf(updated!)).map((p) => p.slug)).toEqual(['c', 'b']);
        expect((await s.roles.setPermissions(r.id, []))!.permissionIds).toEqual([]);
        expect(await s.roles.setPermissions('role_missing', [a.id])).toBeNull();
      });

      it('slugsOfRoles unions the roles\' slugs, skipping unknown names and folding case', async () => {
        const [a, b] = [permission('a.read'), permission('b.read')];
        for (const p of [a, b]) await s.permissions.insert(p);
        await s.roles.insert(role('one', [a.id]));
        await s.roles.insert(role('Two', [a.id, b.id]));
        expect((await s.roles.slugsOfRoles(WORKSPACE_ID, ['ONE', 'two', 'ghost'])).sort()).toEqual(['a.read', 'b.read']);
        expect(await s.roles.slugsOfRoles(WORKSPACE_ID, [])).toEqual([]);
        expect(await s.roles.slugsOfRoles(OTHER_WORKSPACE, ['one'])).toEqual([]);
      });

      it('list: id order, inclusive cursor, workspace filter, search over id/name/description', async () => {
        const records = [role('alpha'), role('beta', [], { description: 'Billing team' }), role('gamma')];
        for (const r of records) await s.roles.insert(r);
        await s.roles.insert(role('delta', [], { workspaceId: OTHER_WORKSPACE }));
        const ids = records.map((r) => r.id).sort();
        expect((await s.roles.list(WORKSPACE_ID, { limit: 10 })).map((r) => r.id)).toEqual(ids);
        expect((await s.roles.list(WORKSPACE_ID, { limit: 1, cursor: ids[2] })).map((r) => r.id)).toEqual([ids[2]]);
        expect((await s.roles.list(WORKSPACE_ID, { limit: 10, search: 'BILLING' })).map((r) => r.name)).toEqual(['beta']);
        expect((await s.roles.list(WORKSPACE_ID, { limit: 10, search: 'gam' })).map((r) => r.name)).toEqual(['gamma']);
      });

      it('delete is hard: frees the name, strips the role from keys (case-insensitively), keeps permissions', async () => {
        const p = permission('p');
        await s.permissions.insert(p);
        const r = role('Reader', [p.id]);
        await s.roles.insert(r);
        const k = key({ roles: ['reader', 'other'] });
        const foreign = key({ workspaceId: OTHER_WORKSPACE, roles: ['Reader'] });
        await s.keys.insert(k, null);
        await s.keys.insert(foreign, null);
        expect(await s.roles.delete(r.id)).toBe(true);
        expect(await s.roles.get(r.id)).toBeNull();
        expect(await s.roles.findByName(WORKSPACE_ID, 'Reader')).toBeNull();
        expect((await s.keys.get(k.id))!.roles).toEqual(['other']);
        expect((await s.keys.get(foreign.id))!.roles).toEqual(['Reader']);
        expect(await s.permissions.get(p.id)).toEqual(p);
        expect(await s.roles.delete(r.id)).toBe(false);
        await s.roles.insert(role('reader'));
      });
    });
  });
}
