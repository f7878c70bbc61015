import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.setRolePermissions → 200', () => {
  const h = useHarness();

  test('replaces the set, creates missing slugs, answers the result sorted by slug', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'rotating', permissions: ['old.one', 'kept'] })).body.data.roleId;
    const res = await h.call('permissions.setRolePermissions', { roleId, permissions: ['zeta', 'kept', 'alpha', 'ALPHA'] });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => p.slug)).toEqual(['alpha', 'kept', 'zeta']);
    for (const p of res.body.data) expect(p).toEqual({ id: expect.stringMatching(/^perm_/), name: p.slug, slug: p.slug });
    const role = (await h.call('permissions.getRole', { role: roleId })).body.data;
    expect(role.permissions.map((p: any) => p.slug).sort()).toEqual(['alpha', 'kept', 'zeta']);
    // The permission that left the role still exists.
    expect((await h.call('permissions.getPermission', { permission: 'old.one' })).status).toBe(200);
  });

  test('[] clears the role', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'clearing', permissions: ['x.y'] })).body.data.roleId;
    const res = await h.call('permissions.setRolePermissions', { roleId, permissions: [] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect((await h.call('permissions.getRole', { role: roleId })).body.data.permissions).toBeUndefined();
  });

  test('a key holding the role sees the new set at once', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'live', permissions: ['a.read'] })).body.data.roleId;
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, roles: ['live'] });
    expect((await h.verify(key, { permissions: 'a.read' })).body.data.code).toBe('VALID');
    await h.call('permissions.setRolePermissions', { roleId, permissions: ['b.read'] });
    expect((await h.verify(key, { permissions: 'a.read' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await h.verify(key, { permissions: 'b.read' })).body.data.code).toBe('VALID');
  });
});
