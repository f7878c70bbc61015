import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.addRoles → 200', () => {
  const h = useHarness();
  const role = async (name: string, permissions: string[] = [], description?: string): Promise<string> => {
    const res = await h.call('permissions.createRole', { name, permissions, ...(description ? { description } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.roleId;
  };
  const addRoles = async (keyId: string, roles: string[], rootKey?: string) => {
    const res = await h.call('keys.addRoles', { keyId, roles }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; description?: string; permissions?: { slug: string }[] }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('attaches the roles; their permissions count at once; answers each role with its permissions', async () => {
    const editorId = await role('ar_editor', ['ar.docs.write', 'ar.docs.read'], 'can edit');
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    expect(await code(key, 'ar.docs.write')).toBe('INSUFFICIENT_PERMISSIONS');
    const data = await addRoles(keyId, ['ar_editor']);
    expect(data).toEqual([{
      id: editorId, name: 'ar_editor', description: 'can edit',
      permissions: [
        { id: expect.stringMatching(/^perm_/), name: 'ar.docs.write', slug: 'ar.docs.write' },
        { id: expect.stringMatching(/^perm_/), name: 'ar.docs.read', slug: 'ar.docs.read' },
      ],
    }]);
    expect(await code(key, 'ar.docs.write AND ar.docs.read')).toBe('VALID');
    const after = await getKey(keyId);
    expect(after.roles).toEqual(['ar_editor']);
    expect([...after.permissions].sort()).toEqual(['ar.docs.read', 'ar.docs.write']);
  });

  test('names match case-insensitively; the key stores the role\'s own name; duplicates collapse', async () => {
    await role('Ar_Viewer', ['ar.view']);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const data = await addRoles(keyId, ['ar_viewer', 'AR_VIEWER']);
    expect(data.map((r) => r.name)).toEqual(['Ar_Viewer']);
    expect((await getKey(keyId)).roles).toEqual(['Ar_Viewer']);
    expect(await code(key, 'ar.view')).toBe('VALID');
  });

  test('answers the roles the key had, by name, then the new ones; a role without permissions has no list', async () => {
    await role('ar_zulu', ['ar.z']);
    await role('ar_alpha');
    await role('ar_new');
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['ar_zulu', 'ar_alpha'] });
    const data = await addRoles(keyId, ['ar_new', 'ar_zulu']);
    expect(data.map((r) => r.name)).toEqual(['ar_alpha', 'ar_zulu', 'ar_new']);
    expect(data[0]).not.toHaveProperty('permissions');
    expect(data[0]).not.toHaveProperty('description');
    expect(data[1]!.permissions!.map((p) => p.slug)).toEqual(['ar.z']);
    expect([...(await getKey(keyId)).roles].sort()).toEqual(['ar_alpha', 'ar_new', 'ar_zulu']);
  });

  test('idempotent: a role already on the key is not added twice; the key is not marked updated', async () => {
    await role('ar_once');
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['ar_once'] });
    expect((await addRoles(keyId, ['AR_ONCE'])).map((r) => r.name)).toEqual(['ar_once']);
    const after = await getKey(keyId);
    expect(after.roles).toEqual(['ar_once']);
    expect(after).not.toHaveProperty('updatedAt');
  });

  test('a root key scoped to the key\'s API with rbac.*.add_role_to_key suffices', async () => {
    await role('ar_scoped', ['ar.scoped']);
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.update_key`, 'rbac.*.add_role_to_key']);
    expect((await addRoles(keyId, ['ar_scoped'], scoped)).map((r) => r.name)).toEqual(['ar_scoped']);
    expect(await code(key, 'ar.scoped')).toBe('VALID');
  });

  test('a role name may hold any character (no pattern, as in Unkey)', async () => {
    await role('Ops Team / EU');
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    expect((await addRoles(keyId, ['ops team / eu'])).map((r) => r.name)).toEqual(['Ops Team / EU']);
  });
});
