import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.removeRoles → 200', () => {
  const h = useHarness();
  const role = async (name: string, permissions: string[] = []) => {
    expect((await h.call('permissions.createRole', { name, permissions })).status).toBe(200);
  };
  const removeRoles = async (keyId: string, roles: string[], rootKey?: string) => {
    const res = await h.call('keys.removeRoles', { keyId, roles }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; permissions?: { slug: string }[] }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('detaches the roles; their permissions stop counting at once; answers the remaining roles', async () => {
    await role('rr_admin', ['rr.admin']);
    await role('rr_reader', ['rr.read']);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['rr_admin', 'rr_reader'] });
    expect(await code(key, 'rr.admin')).toBe('VALID');
    const data = await removeRoles(keyId, ['RR_ADMIN']);
    expect(data).toEqual([{ id: expect.stringMatching(/^role_/), name: 'rr_reader', permissions: [{ id: expect.stringMatching(/^perm_/), name: 'rr.read', slug: 'rr.read' }] }]);
    expect(await code(key, 'rr.admin')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'rr.read')).toBe('VALID');
    expect((await getKey(keyId)).roles).toEqual(['rr_reader']);
    // The role itself stays in the workspace.
    expect((await h.call('permissions.getRole', { role: 'rr_admin' })).status).toBe(200);
  });

  test('a role that exists but is not on the key is ignored; the key is not marked updated', async () => {
    await role('rr_other');
    await role('rr_mine');
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['rr_mine'] });
    expect((await removeRoles(keyId, ['rr_other'])).map((r) => r.name)).toEqual(['rr_mine']);
    const after = await getKey(keyId);
    expect(after.roles).toEqual(['rr_mine']);
    expect(after).not.toHaveProperty('updatedAt');
  });

  test('direct permissions are untouched, even one the role also grants', async () => {
    await role('rr_overlap', ['rr.overlap']);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['rr.overlap'], roles: ['rr_overlap'] });
    expect(await removeRoles(keyId, ['rr_overlap'])).toEqual([]);
    const after = await getKey(keyId);
    expect(after).not.toHaveProperty('roles');
    expect(after.permissions).toEqual(['rr.overlap']);
    expect(await code(key, 'rr.overlap')).toBe('VALID');
  });

  test('update_key on the key\'s API alone suffices (no rbac action needed, as in Unkey)', async () => {
    await role('rr_plain', ['rr.plain']);
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId, roles: ['rr_plain'] });
    expect(await removeRoles(keyId, ['rr_plain'], await h.rootKey([`api.${apiId}.update_key`]))).toEqual([]);
    expect(await code(key, 'rr.plain')).toBe('INSUFFICIENT_PERMISSIONS');
  });
});
