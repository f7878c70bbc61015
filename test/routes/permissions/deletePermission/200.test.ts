import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deletePermission → 200', () => {
  const h = useHarness();

  test('deletes by slug, answers {}, and the slug can be created again', async () => {
    await h.call('permissions.createPermission', { name: 'x', slug: 'temp.slug' });
    const res = await h.call('permissions.deletePermission', { permission: 'temp.slug' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({});
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'temp.slug')).toBeNull();
    expect((await h.call('permissions.createPermission', { name: 'x', slug: 'temp.slug' })).status).toBe(200);
  });

  test('deletes by id', async () => {
    const permissionId = (await h.call('permissions.createPermission', { name: 'x', slug: 'by.id' })).body.data.permissionId;
    expect((await h.call('permissions.deletePermission', { permission: permissionId })).status).toBe(200);
    expect(await h.keygate.services.storage.permissions.get(permissionId)).toBeNull();
  });

  test('the permission leaves every role', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'holder', permissions: ['leaving', 'staying'] })).body.data.roleId;
    expect((await h.call('permissions.deletePermission', { permission: 'leaving' })).status).toBe(200);
    const role = await h.call('permissions.getRole', { role: roleId });
    expect(role.body.data.permissions.map((p: any) => p.slug)).toEqual(['staying']);
  });

  test('a key loses it as a direct permission at once (verification and storage)', async () => {
    const apiId = await h.createApi();
    const { key, keyId } = await h.createKey({ apiId, permissions: ['direct.one', 'direct.two'] });
    expect((await h.verify(key, { permissions: 'direct.one' })).body.data.code).toBe('VALID');
    expect((await h.call('permissions.deletePermission', { permission: 'direct.one' })).status).toBe(200);
    const after = await h.verify(key, { permissions: 'direct.one' });
    expect(after.body.data.valid).toBe(false);
    expect(after.body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(after.body.data.permissions).toEqual(['direct.two']);
    expect((await h.keygate.services.storage.keys.get(keyId))!.permissions).toEqual(['direct.two']);
  });
});
