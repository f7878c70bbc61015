import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setPermissions → 200', () => {
  const h = useHarness();
  const set = async (keyId: string, permissions: string[], rootKey?: string) => {
    const res = await h.call('keys.setPermissions', { keyId, permissions }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; slug: string }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('replaces the direct permissions; verification follows at once', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['set.old', 'set.kept'] });
    const data = await set(keyId, ['set.kept', 'set.new']);
    expect(data.map((p) => p.slug)).toEqual(['set.kept', 'set.new']);
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['set.kept', 'set.new']);
    expect(await code(key, 'set.old')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'set.kept AND set.new')).toBe('VALID');
  });

  test('answers existing permissions first, then the created ones; case-insensitive duplicates collapse', async () => {
    expect((await h.call('permissions.createPermission', { name: 'Existing', slug: 'Set.Existing' })).status).toBe(200);
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const data = await set(keyId, ['set.created.b', 'set.existing', 'set.created.a', 'SET.CREATED.B']);
    expect(data.map((p) => p.slug)).toEqual(['Set.Existing', 'set.created.b', 'set.created.a']);
    expect(data[0]!.name).toBe('Existing');
    expect(data[1]).toEqual({ id: expect.stringMatching(/^perm_/), name: 'set.created.b', slug: 'set.created.b' });
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'set.created.a')).not.toBeNull();
    // The key stores each permission's own slug.
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['Set.Existing', 'set.created.a', 'set.created.b']);
  });

  test('[] removes every direct permission; role permissions stay', async () => {
    expect((await h.call('permissions.createRole', { name: 'set_role', permissions: ['set.via.role'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['set.direct'], roles: ['set_role'] });
    expect(await set(keyId, [])).toEqual([]);
    expect((await getKey(keyId)).permissions).toEqual(['set.via.role']);
    expect(await code(key, 'set.direct')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'set.via.role')).toBe('VALID');
  });

  test('setting the same set again leaves the key as it was (not marked updated)', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['same.a', 'same.b'] });
    expect((await set(keyId, ['same.a', 'same.b'])).map((p) => p.slug)).toEqual(['same.a', 'same.b']);
    expect(await getKey(keyId)).not.toHaveProperty('updatedAt');
  });

  test('a root key scoped to the key\'s API with both rbac actions suffices for existing slugs', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId, permissions: ['scope.one'] });
    expect((await h.call('permissions.createPermission', { name: 'two', slug: 'scope.two' })).status).toBe(200);
    const scoped = await h.rootKey([`api.${apiId}.update_key`, 'rbac.*.add_permission_to_key', 'rbac.*.remove_permission_from_key']);
    expect((await set(keyId, ['scope.two'], scoped)).map((p) => p.slug)).toEqual(['scope.two']);
    expect(await code(key, 'scope.two')).toBe('VALID');
  });
});
