import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removePermissions → 403', () => {
  const h = useHarness();
  const body = async () => ({ keyId: (await h.createKey({ apiId: await h.createApi(), permissions: ['x.read'] })).keyId, permissions: ['x.read'] });

  describeForbiddenCase(h, 'keys.removePermissions', body, 'api.*.update_key', ['rbac.*.remove_permission_from_key']);
  describeForbiddenCase(h, 'keys.removePermissions', body, 'rbac.*.remove_permission_from_key', ['api.*.update_key', 'rbac.*.add_permission_to_key']);

  test('refused: the permission stays attached and verifiable', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['keep.read'] });
    const res = await h.call('keys.removePermissions', { keyId, permissions: ['keep.read'] }, { rootKey: await h.rootKey(['api.*.update_key']) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'rbac.*.remove_permission_from_key'.");
    expect((await h.verify(key, { permissions: 'keep.read' })).body.data.code).toBe('VALID');
  });

  test('checked before the slugs: an unknown slug with a weak root key is a 403, not a 404', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.removePermissions', { keyId, permissions: ['no.such.slug'] }, { rootKey: await h.rootKey(['api.*.update_key']) });
    expectError(res, 403, 'forbidden');
  });
});
