/** End-user RBAC through keys.createKey and keys.verifyKey. */
import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../src/storage/records.js';
import { expectError } from '../../support/auth-cases.js';
import { useHarness } from '../../support/harness.js';

describe('keys with permissions and roles', () => {
  const h = useHarness();

  test("a role's permissions satisfy a verifyKey permissions query; the response shows the effective set", async () => {
    await h.call('permissions.createRole', { name: 'editor', permissions: ['docs.read', 'docs.write'] });
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, roles: ['editor'], permissions: ['billing.read'] });
    const res = await h.verify(key, { permissions: 'docs.write AND billing.read' });
    expect(res.body.data.valid).toBe(true);
    expect(res.body.data.code).toBe('VALID');
    expect(res.body.data.roles).toEqual(['editor']);
    expect([...res.body.data.permissions].sort()).toEqual(['billing.read', 'docs.read', 'docs.write']);
    const denied = await h.verify(key, { permissions: 'docs.delete' });
    expect(denied.body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('deleting a permission held only through a role takes effect on verification at once', async () => {
    await h.call('permissions.createRole', { name: 'mover', permissions: ['boxes.move'] });
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, roles: ['mover'] });
    expect((await h.verify(key, { permissions: 'boxes.move' })).body.data.code).toBe('VALID');
    expect((await h.call('permissions.deletePermission', { permission: 'boxes.move' })).status).toBe(200);
    const after = await h.verify(key, { permissions: 'boxes.move' });
    expect(after.body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(after.body.data.permissions).toBeUndefined();
  });

  test('createKey with an unknown role → 404 role_not_found and creates nothing', async () => {
    await h.call('permissions.createRole', { name: 'known' });
    const apiId = await h.createApi('no-keys');
    const res = await h.call('keys.createKey', { apiId, roles: ['known', 'unknown-role'], permissions: ['should.not.exist'], externalId: 'not-created-user' });
    expectError(res, 404, 'unkey/data/role_not_found');
    expect(res.body.error.detail).toBe("Role 'unknown-role' was not found.");
    const storage = h.keygate.services.storage;
    expect(await storage.keys.listByApi(apiId, { limit: 10 })).toEqual([]);
    expect(await storage.permissions.findBySlug(WORKSPACE_ID, 'should.not.exist')).toBeNull();
    expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'not-created-user')).toBeNull();
  });

  test('createKey resolves role names case-insensitively and stores the role\'s own name', async () => {
    await h.call('permissions.createRole', { name: 'Owner', permissions: ['all.things'] });
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, roles: ['owner', 'OWNER'] });
    const res = await h.verify(key, { permissions: 'all.things' });
    expect(res.body.data.code).toBe('VALID');
    expect(res.body.data.roles).toEqual(['Owner']);
  });

  test('createKey auto-creates unknown permission slugs (name = slug) without create_permission', async () => {
    const apiId = await h.createApi();
    const rootKey = await h.rootKey(['api.*.create_key']);
    const res = await h.call('keys.createKey', { apiId, permissions: ['fresh.slug', 'fresh.slug'] }, { rootKey });
    expect(res.status).toBe(200);
    const got = await h.call('permissions.getPermission', { permission: 'fresh.slug' });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({ id: expect.stringMatching(/^perm_/), name: 'fresh.slug', slug: 'fresh.slug' });
    expect((await h.verify(res.body.data.key, { permissions: 'fresh.slug' })).body.data.code).toBe('VALID');
  });

  test('createKey links an existing permission given in another case to its stored slug', async () => {
    await h.call('permissions.createPermission', { name: 'Export', slug: 'data.Export' });
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, permissions: ['data.export'] });
    const res = await h.verify(key, { permissions: 'data.Export' });
    expect(res.body.data.code).toBe('VALID');
    expect(res.body.data.permissions).toEqual(['data.Export']);
  });
});
