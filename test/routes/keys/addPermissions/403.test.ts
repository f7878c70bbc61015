import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addPermissions → 403', () => {
  const h = useHarness();
  const newKey = async () => h.createKey({ apiId: await h.createApi() });
  const call = (keyId: string, permissions: string[], rootKey: string) => h.call('keys.addPermissions', { keyId, permissions }, { rootKey });
  const direct = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data.permissions;

  describeForbiddenCase(h, 'keys.addPermissions', async () => ({ keyId: (await newKey()).keyId, permissions: ['x.read'] }),
    'api.*.update_key', ['rbac.*.add_permission_to_key', 'rbac.*.create_permission']);
  describeForbiddenCase(h, 'keys.addPermissions', async () => ({ keyId: (await newKey()).keyId, permissions: ['x.read'] }),
    'rbac.*.add_permission_to_key', ['api.*.update_key', 'rbac.*.create_permission']);

  test('both missing: one 403 names both requirements, and the key is unchanged', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    const res = await call(keyId, ['x.read'], await h.rootKey(['api.*.read_key']));
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.update_key' or 'api.${apiId}.update_key'. `
      + "Missing permission: 'rbac.*.add_permission_to_key'.");
    expect(await direct(keyId)).toBeUndefined();
    expect((await h.verify(key, { permissions: 'x.read' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('a root key scoped to another API is refused', async () => {
    const mine = await h.createApi();
    const { keyId } = await newKey();
    const res = await call(keyId, ['x.read'], await h.rootKey([`api.${mine}.update_key`, 'rbac.*.add_permission_to_key']));
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain("'api.*.update_key'");
  });

  test('an unknown slug without rbac.*.create_permission: 403, nothing created, nothing attached', async () => {
    expect((await h.call('permissions.createPermission', { name: 'known', slug: 'known.read' })).status).toBe(200);
    const { keyId, key } = await newKey();
    const res = await call(keyId, ['known.read', 'never.created'], await h.rootKey(['api.*.update_key', 'rbac.*.add_permission_to_key']));
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'rbac.*.create_permission'.");
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'never.created')).toBeNull();
    // The known slug of the same request is not attached either.
    expect(await direct(keyId)).toBeUndefined();
    expect((await h.verify(key, { permissions: 'known.read' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('the permission check comes before the slugs are looked at', async () => {
    const { keyId } = await newKey();
    const res = await call(keyId, ['some.new.slug'], await h.rootKey(['rbac.*.create_permission']));
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.*.update_key');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'some.new.slug')).toBeNull();
  });
});
