import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setPermissions → 403', () => {
  const h = useHarness();
  const body = async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, permissions: [] });
  const both = ['rbac.*.add_permission_to_key', 'rbac.*.remove_permission_from_key'];

  describeForbiddenCase(h, 'keys.setPermissions', body, 'api.*.update_key', both);
  describeForbiddenCase(h, 'keys.setPermissions', body, 'rbac.*.remove_permission_from_key', ['api.*.update_key', 'rbac.*.add_permission_to_key']);
  describeForbiddenCase(h, 'keys.setPermissions', body, 'rbac.*.add_permission_to_key', ['api.*.update_key', 'rbac.*.remove_permission_from_key']);

  test('refused: the key keeps its permissions', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['keep.me'] });
    const res = await h.call('keys.setPermissions', { keyId, permissions: [] }, { rootKey: await h.rootKey(['api.*.update_key', 'rbac.*.add_permission_to_key']) });
    expectError(res, 403, 'forbidden');
    expect((await h.verify(key, { permissions: 'keep.me' })).body.data.code).toBe('VALID');
  });

  test('an unknown slug without rbac.*.create_permission: 403, nothing created, the set unchanged', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['keep.too'] });
    const res = await h.call('keys.setPermissions', { keyId, permissions: ['brand.new'] }, { rootKey: await h.rootKey(['api.*.update_key', ...both]) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'rbac.*.create_permission'.");
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'brand.new')).toBeNull();
    expect((await h.call('keys.getKey', { keyId })).body.data.permissions).toEqual(['keep.too']);
    expect((await h.verify(key, { permissions: 'keep.too' })).body.data.code).toBe('VALID');
  });
});
