import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deleteRole → 200', () => {
  const h = useHarness();

  test('deletes by name and by id, answers {}, keeps the permissions, frees the name', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'temp', permissions: ['temp.perm'] })).body.data.roleId;
    const res = await h.call('permissions.deleteRole', { role: roleId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({});
    expect((await h.call('permissions.getPermission', { permission: 'temp.perm' })).status).toBe(200);
    expect((await h.call('permissions.createRole', { name: 'temp' })).status).toBe(200);
    expect((await h.call('permissions.deleteRole', { role: 'TEMP' })).status).toBe(200);
    expect((await h.call('permissions.getRole', { role: 'temp' })).status).toBe(404);
  });

  test('a key loses the role and its permissions at once', async () => {
    await h.call('permissions.createRole', { name: 'reader', permissions: ['books.read'] });
    const apiId = await h.createApi();
    const { key, keyId } = await h.createKey({ apiId, roles: ['reader'], permissions: ['books.own'] });
    const before = await h.verify(key, { permissions: 'books.read' });
    expect(before.body.data.code).toBe('VALID');
    expect(before.body.data.roles).toEqual(['reader']);
    expect((await h.call('permissions.deleteRole', { role: 'reader' })).status).toBe(200);
    const after = await h.verify(key, { permissions: 'books.read' });
    expect(after.body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect(after.body.data.roles).toBeUndefined();
    expect(after.body.data.permissions).toEqual(['books.own']);
    expect((await h.keygate.services.storage.keys.get(keyId))!.roles).toEqual([]);
  });
});
