import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.removePermissions → 200', () => {
  const h = useHarness();
  const remove = async (keyId: string, permissions: string[], rootKey?: string) => {
    const res = await h.call('keys.removePermissions', { keyId, permissions }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; slug: string }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('detaches the slugs; verification refuses them at once; answers the remaining direct ones', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['rm.read', 'rm.write', 'rm.admin'] });
    expect(await code(key, 'rm.write')).toBe('VALID');
    const data = await remove(keyId, ['rm.write', 'rm.admin']);
    expect(data).toEqual([{ id: expect.stringMatching(/^perm_/), name: 'rm.read', slug: 'rm.read' }]);
    expect(await code(key, 'rm.write')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'rm.read')).toBe('VALID');
    expect((await getKey(keyId)).permissions).toEqual(['rm.read']);
    // The permissions themselves stay in the workspace.
    expect((await h.call('permissions.getPermission', { permission: 'rm.write' })).status).toBe(200);
  });

  test('slugs match case-insensitively; removing the last one leaves the key without permissions', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['Case.Read'] });
    expect(await remove(keyId, ['CASE.READ'])).toEqual([]);
    expect(await getKey(keyId)).not.toHaveProperty('permissions');
    expect(await code(key, 'Case.Read')).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('a known permission that is not attached is ignored; the key is not marked updated', async () => {
    expect((await h.call('permissions.createPermission', { name: 'elsewhere', slug: 'rm.elsewhere' })).status).toBe(200);
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['rm.kept'] });
    const data = await remove(keyId, ['rm.elsewhere']);
    expect(data.map((p) => p.slug)).toEqual(['rm.kept']);
    const after = await getKey(keyId);
    expect(after.permissions).toEqual(['rm.kept']);
    expect(after).not.toHaveProperty('updatedAt');
  });

  test('only direct permissions go: a slug also granted by a role stays effective', async () => {
    expect((await h.call('permissions.createRole', { name: 'rm_role', permissions: ['rm.shared'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['rm.shared', 'rm.own'], roles: ['rm_role'] });
    expect((await remove(keyId, ['rm.shared'])).map((p) => p.slug)).toEqual(['rm.own']);
    expect(await code(key, 'rm.shared')).toBe('VALID');
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['rm.own', 'rm.shared']);
  });

  test('a root key scoped to the key\'s API with remove_permission_from_key suffices', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId, permissions: ['rm.scoped'] });
    const scoped = await h.rootKey([`api.${apiId}.update_key`, 'rbac.*.remove_permission_from_key']);
    expect(await remove(keyId, ['rm.scoped'], scoped)).toEqual([]);
    expect(await code(key, 'rm.scoped')).toBe('INSUFFICIENT_PERMISSIONS');
  });
});
