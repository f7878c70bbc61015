import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);
const errorOf = (e: unknown) => (e as errors.NotFoundErrorResponse).data$.error;

/** Rejected with the SDK's ForbiddenErrorResponse whose detail names `tuple`. */
async function expectForbidden(call: Promise<unknown>, tuple: string): Promise<void> {
  const e = await rejection(call);
  expect(e).toBeInstanceOf(errors.ForbiddenErrorResponse);
  expect(errorOf(e)).toMatchObject({ status: 403, type: `${DOCS}/forbidden` });
  expect(errorOf(e).detail).toContain(tuple);
}

describe('the official SDK against keygate: permissions', () => {
  const h = useHarness();

  test('createPermission and getPermission by id or slug; slugs are unique case-insensitively', async () => {
    const unkey = sdkFor(h);
    const { permissionId } = (await unkey.permissions.createPermission({ name: 'Read documents', slug: 'documents.read', description: 'May read' })).data;
    expect(permissionId).toMatch(/^perm_/);
    const expected = { id: permissionId, name: 'Read documents', slug: 'documents.read', description: 'May read' };
    expect((await unkey.permissions.getPermission({ permission: permissionId })).data).toEqual(expected);
    expect((await unkey.permissions.getPermission({ permission: 'documents.read' })).data).toEqual(expected);
    const plain = (await unkey.permissions.createPermission({ name: 'Write', slug: 'documents.write' })).data.permissionId;
    expect((await unkey.permissions.getPermission({ permission: plain })).data).toEqual({ id: plain, name: 'Write', slug: 'documents.write' });

    const conflict = await rejection(unkey.permissions.createPermission({ name: 'again', slug: 'Documents.READ' }));
    expect(conflict).toBeInstanceOf(errors.ConflictErrorResponse);
    expect(errorOf(conflict)).toMatchObject({ status: 409, type: `${DOCS}/unkey/data/permission_already_exists` });

    const missing = await rejection(unkey.permissions.getPermission({ permission: 'documents.delete' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing)).toMatchObject({ type: `${DOCS}/unkey/data/permission_not_found`, detail: 'The requested permission does not exist.' });

    const reader = sdkFor(h, await h.rootKey(['rbac.*.read_permission']));
    expect((await reader.permissions.getPermission({ permission: 'documents.read' })).data.id).toBe(permissionId);
    await expectForbidden(reader.permissions.createPermission({ name: 'x', slug: 'x.y' }), 'rbac.*.create_permission');
    // Permission first: an unknown permission is a 403 too.
    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.create_permission'])).permissions.getPermission({ permission: 'nope.nope' }), 'rbac.*.read_permission');
    expect(await rejection(unkey.permissions.createPermission({ name: 'bad', slug: 'has space' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.permissions.createPermission({ name: '', slug: 'empty.name' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.permissions.getPermission({ permission: 'bad slug' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.permissions.deletePermission({ permission: '' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('listPermissions pages in id order and searches id, name, slug and description', async () => {
    const unkey = sdkFor(h);
    const ids: string[] = [];
    for (const [slug, description] of [['lp.alpha', 'First'], ['lp.beta', 'Needle in here'], ['lp.gamma', undefined], ['lp.delta', undefined]] as const) {
      ids.push((await unkey.permissions.createPermission({ name: `Name ${slug}`, slug, ...(description ? { description } : {}) })).data.permissionId);
    }
    const sorted = [...ids].sort();
    const first = await unkey.permissions.listPermissions({ search: 'lp.', limit: 3 });
    expect(first.result.data.map((p) => p.id)).toEqual(sorted.slice(0, 3));
    expect(first.result.pagination).toEqual({ hasMore: true, cursor: sorted[3] });
    const second = await first.next();
    expect(second?.result.data.map((p) => p.id)).toEqual(sorted.slice(3));
    expect(second?.result.pagination).toEqual({ hasMore: false });
    expect(await second!.next()).toBeNull();

    expect((await unkey.permissions.listPermissions({ search: 'NEEDLE' })).result.data).toEqual([
      { id: ids[1], name: 'Name lp.beta', slug: 'lp.beta', description: 'Needle in here' },
    ]);
    expect((await unkey.permissions.listPermissions({ search: 'name LP.GAM' })).result.data.map((p) => p.id)).toEqual([ids[2]]);
    expect((await unkey.permissions.listPermissions({ search: ids[3]! })).result.data.map((p) => p.slug)).toEqual(['lp.delta']);
    expect((await unkey.permissions.listPermissions({ search: 'no such thing' })).result.data).toEqual([]);

    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.read_role'])).permissions.listPermissions({}), 'rbac.*.read_permission');
    expect(await rejection(unkey.permissions.listPermissions({ limit: 0 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.permissions.listPermissions({ search: 's'.repeat(257) }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('createRole with permissions (unknown slugs created), getRole by id or name, names unique case-insensitively', async () => {
    const unkey = sdkFor(h);
    await unkey.permissions.createPermission({ name: 'Existing', slug: 'cr.existing' });
    const { roleId } = (await unkey.permissions.createRole({ name: 'Editor', description: 'Edits', permissions: ['cr.existing', 'cr.new', 'CR.NEW'] })).data;
    expect(roleId).toMatch(/^role_/);

    const role = (await unkey.permissions.getRole({ role: roleId })).data;
    expect(role).toMatchObject({ id: roleId, name: 'Editor', description: 'Edits' });
    expect(role.permissions!.map((p) => p.slug).sort()).toEqual(['cr.existing', 'cr.new']);
    expect(role.permissions!.find((p) => p.slug === 'cr.new')).toEqual((await unkey.permissions.getPermission({ permission: 'cr.new' })).data);
    expect((await unkey.permissions.getRole({ role: 'Editor' })).data).toEqual(role);
    const bare = (await unkey.permissions.createRole({ name: 'Bare' })).data.roleId;
    expect((await unkey.permissions.getRole({ role: bare })).data).toEqual({ id: bare, name: 'Bare' });

    const conflict = await rejection(unkey.permissions.createRole({ name: 'EDITOR' }));
    expect(conflict).toBeInstanceOf(errors.ConflictErrorResponse);
    expect(errorOf(conflict)).toMatchObject({ status: 409, type: `${DOCS}/unkey/data/role_already_exists` });
    const missing = await rejection(unkey.permissions.getRole({ role: 'Nobody' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing)).toMatchObject({ type: `${DOCS}/unkey/data/role_not_found`, detail: 'The requested role does not exist.' });

    const creator = sdkFor(h, await h.rootKey(['rbac.*.create_role']));
    expect((await creator.permissions.createRole({ name: 'Creator only' })).data.roleId).toMatch(/^role_/);
    await expectForbidden(creator.permissions.createRole({ name: 'With perms', permissions: ['cr.existing'] }), 'rbac.*.add_permission_to_role');
    const linker = sdkFor(h, await h.rootKey(['rbac.*.create_role', 'rbac.*.add_permission_to_role']));
    expect((await linker.permissions.createRole({ name: 'Linked', permissions: ['cr.existing'] })).data.roleId).toMatch(/^role_/);
    await expectForbidden(linker.permissions.createRole({ name: 'Creates slugs', permissions: ['cr.unknown'] }), 'rbac.*.create_permission');
    await expect(unkey.permissions.getPermission({ permission: 'cr.unknown' })).rejects.toBeInstanceOf(errors.NotFoundErrorResponse);
    await expectForbidden(creator.permissions.getRole({ role: roleId }), 'rbac.*.read_role');
    expect(await rejection(unkey.permissions.createRole({ name: '' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.permissions.getRole({ role: 'r'.repeat(129) }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('listRoles pages in id order with each role\'s permissions, and searches id, name and description', async () => {
    const unkey = sdkFor(h);
    const ids: string[] = [];
    for (const [name, description] of [['lr-one', 'Has a Marker'], ['lr-two', undefined], ['lr-three', undefined]] as const) {
      ids.push((await unkey.permissions.createRole({ name, permissions: [`${name}.perm`], ...(description ? { description } : {}) })).data.roleId);
    }
    const sorted = [...ids].sort();
    const seen: string[] = [];
    for await (const page of await unkey.permissions.listRoles({ search: 'lr-', limit: 2 })) {
      expect(page.result.data.length).toBeLessThanOrEqual(2);
      for (const role of page.result.data) {
        seen.push(role.id);
        expect(role.permissions!.map((p) => p.slug)).toEqual([`${role.name}.perm`]);
      }
    }
    expect(seen).toEqual(sorted);
    expect((await unkey.permissions.listRoles({ search: 'marker' })).result.data.map((r) => r.name)).toEqual(['lr-one']);
    expect((await unkey.permissions.listRoles({ search: ids[2]! })).result.data.map((r) => r.name)).toEqual(['lr-three']);

    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.read_permission'])).permissions.listRoles({}), 'rbac.*.read_role');
    expect(await rejection(unkey.permissions.listRoles({ limit: 101 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('setRolePermissions replaces the set (answered sorted by slug) and keys follow at once', async () => {
    const unkey = sdkFor(h);
    const { roleId } = (await unkey.permissions.createRole({ name: 'srp-role', permissions: ['srp.old'] })).data;
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-srp' })).data;
    const { key } = (await unkey.keys.createKey({ apiId, roles: ['srp-role'] })).data;
    expect((await unkey.keys.verifyKey({ key, permissions: 'srp.old' })).data.valid).toBe(true);

    const set = (await unkey.permissions.setRolePermissions({ roleId, permissions: ['srp.zeta', 'srp.alpha', 'SRP.ALPHA'] })).data;
    expect(set.map((p) => p.slug)).toEqual(['srp.alpha', 'srp.zeta']);
    expect(set[0]).toEqual((await unkey.permissions.getPermission({ permission: 'srp.alpha' })).data);
    expect((await unkey.permissions.getRole({ role: roleId })).data.permissions!.map((p) => p.slug).sort()).toEqual(['srp.alpha', 'srp.zeta']);
    expect((await unkey.keys.verifyKey({ key, permissions: 'srp.old' })).data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await unkey.keys.verifyKey({ key, permissions: 'srp.alpha AND srp.zeta' })).data.valid).toBe(true);

    expect((await unkey.permissions.setRolePermissions({ roleId, permissions: [] })).data).toEqual([]);
    expect((await unkey.permissions.getRole({ role: roleId })).data).not.toHaveProperty('permissions');

    const byName = await rejection(unkey.permissions.setRolePermissions({ roleId: 'srp-role', permissions: ['srp.alpha'] }));
    expect(byName).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(byName).type).toBe(`${DOCS}/unkey/data/role_not_found`);
    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.add_permission_to_role'])).permissions.setRolePermissions({ roleId, permissions: [] }), 'rbac.*.remove_permission_from_role');
    const both = sdkFor(h, await h.rootKey(['rbac.*.add_permission_to_role', 'rbac.*.remove_permission_from_role']));
    expect((await both.permissions.setRolePermissions({ roleId, permissions: ['srp.alpha'] })).data.map((p) => p.slug)).toEqual(['srp.alpha']);
    await expectForbidden(both.permissions.setRolePermissions({ roleId, permissions: ['srp.brand_new'] }), 'rbac.*.create_permission');
    expect(await rejection(unkey.permissions.setRolePermissions({ roleId, permissions: ['bad slug'] }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('deletePermission and deleteRole: hard deletes that roles and keys feel at once; deleting again is a 404', async () => {
    const unkey = sdkFor(h);
    const { permissionId } = (await unkey.permissions.createPermission({ name: 'Gone soon', slug: 'del.perm' })).data;
    await unkey.permissions.createRole({ name: 'del-holder', permissions: ['del.perm', 'del.kept'] });
    await unkey.permissions.createRole({ name: 'del-role', permissions: ['del.via_role'] });
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-rbac-delete' })).data;
    const { key, keyId } = (await unkey.keys.createKey({ apiId, permissions: ['del.perm'], roles: ['del-role'] })).data;
    expect((await unkey.keys.verifyKey({ key, permissions: 'del.perm AND del.via_role' })).data.valid).toBe(true);

    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.read_permission'])).permissions.deletePermission({ permission: 'del.perm' }), 'rbac.*.delete_permission');
    expect((await unkey.permissions.deletePermission({ permission: 'del.perm' })).data).toEqual({});
    expect(await rejection(unkey.permissions.getPermission({ permission: permissionId }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((await unkey.permissions.getRole({ role: 'del-holder' })).data.permissions!.map((p) => p.slug)).toEqual(['del.kept']);
    expect((await unkey.keys.verifyKey({ key, permissions: 'del.perm' })).data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await unkey.keys.getKey({ keyId })).data.permissions).toEqual(['del.via_role']);
    const permAgain = await rejection(unkey.permissions.deletePermission({ permission: permissionId }));
    expect(permAgain).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(permAgain).type).toBe(`${DOCS}/unkey/data/permission_not_found`);

    await expectForbidden(sdkFor(h, await h.rootKey(['rbac.*.read_role'])).permissions.deleteRole({ role: 'del-role' }), 'rbac.*.delete_role');
    expect((await unkey.permissions.deleteRole({ role: 'DEL-ROLE' })).data).toEqual({});
    expect(await rejection(unkey.permissions.getRole({ role: 'del-role' }))).toBeInstanceOf(errors.NotFoundErrorResponse);
    const verified = (await unkey.keys.verifyKey({ key, permissions: 'del.via_role' })).data;
    expect(verified.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(verified).not.toHaveProperty('roles');
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('roles');
    // Gone for good: a new role or permission with the same name is not the old one.
    await unkey.permissions.createRole({ name: 'del-role', permissions: ['del.via_role'] });
    await unkey.permissions.createPermission({ name: 'Back', slug: 'del.perm' });
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('permissions');
    expect((await unkey.keys.verifyKey({ key, permissions: 'del.perm OR del.via_role' })).data.code).toBe('INSUFFICIENT_PERMISSIONS');
    await unkey.permissions.deleteRole({ role: 'del-role' });
    // The permission itself stays.
    expect((await unkey.permissions.getPermission({ permission: 'del.via_role' })).data.slug).toBe('del.via_role');

    // The SDK declares no 404 for deleteRole (Unkey's spec omits it), so it surfaces as APIError.
    const roleAgain = await rejection(unkey.permissions.deleteRole({ role: 'del-role' }));
    expect(roleAgain).toBeInstanceOf(errors.APIError);
    expect((roleAgain as errors.APIError).statusCode).toBe(404);
    expect(JSON.parse((roleAgain as errors.APIError).body).error).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/role_not_found` });
  });
});
