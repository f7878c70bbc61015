import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.setRoles → 200', () => {
  const h = useHarness();
  const role = async (name: string, permissions: string[] = []) => {
    expect((await h.call('permissions.createRole', { name, permissions })).status).toBe(200);
  };
  const setRoles = async (keyId: string, roles: string[], rootKey?: string) => {
    const res = await h.call('keys.setRoles', { keyId, roles }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; permissions?: { slug: string }[] }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('replaces the roles; verification follows at once; answers the requested roles with permissions', async () => {
    await role('sr_old', ['sr.old']);
    await role('sr_new', ['sr.new']);
    await role('Sr_Bare');
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_old'] });
    const data = await setRoles(keyId, ['sr_new', 'sr_bare', 'SR_NEW']);
    expect(data.map((r) => r.name)).toEqual(['sr_new', 'Sr_Bare']);
    expect(data[0]!.permissions!.map((p) => p.slug)).toEqual(['sr.new']);
    expect(data[1]).not.toHaveProperty('permissions');
    expect([...(await getKey(keyId)).roles].sort()).toEqual(['Sr_Bare', 'sr_new']);
    expect(await code(key, 'sr.old')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'sr.new')).toBe('VALID');
  });

  test('[] removes every role; direct permissions stay', async () => {
    await role('sr_gone', ['sr.gone']);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_gone'], permissions: ['sr.direct'] });
    expect(await setRoles(keyId, [])).toEqual([]);
    const after = await getKey(keyId);
    expect(after).not.toHaveProperty('roles');
    expect(after.permissions).toEqual(['sr.direct']);
    expect(await code(key, 'sr.gone')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await code(key, 'sr.direct')).toBe('VALID');
  });

  test('setting the same roles again leaves the key as it was (not marked updated)', async () => {
    await role('sr_same');
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_same'] });
    expect((await setRoles(keyId, ['sr_same'])).map((r) => r.name)).toEqual(['sr_same']);
    expect(await getKey(keyId)).not.toHaveProperty('updatedAt');
  });

  test('update_key on the key\'s API alone suffices (no rbac action needed, as in Unkey)', async () => {
    await role('sr_scoped', ['sr.scoped']);
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    expect((await setRoles(keyId, ['sr_scoped'], await h.rootKey([`api.${apiId}.update_key`]))).map((r) => r.name)).toEqual(['sr_scoped']);
    expect(await code(key, 'sr.scoped')).toBe('VALID');
  });
});
