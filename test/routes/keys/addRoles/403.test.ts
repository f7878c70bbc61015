import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addRoles → 403', () => {
  const h = useHarness();
  const body = async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, roles: ['ar_forbidden'] });

  describeForbiddenCase(h, 'keys.addRoles', body, 'api.*.update_key', ['rbac.*.add_role_to_key']);
  describeForbiddenCase(h, 'keys.addRoles', body, 'rbac.*.add_role_to_key', ['api.*.update_key', 'rbac.*.add_permission_to_key']);

  test('refused: the role is not attached and its permissions do not count', async () => {
    expect((await h.call('permissions.createRole', { name: 'ar_guarded', permissions: ['ar.guarded'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.addRoles', { keyId, roles: ['ar_guarded'] }, { rootKey: await h.rootKey(['api.*.update_key']) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'rbac.*.add_role_to_key'.");
    expect((await h.call('keys.getKey', { keyId })).body.data).not.toHaveProperty('roles');
    expect((await h.verify(key, { permissions: 'ar.guarded' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('a root key scoped to another API is refused', async () => {
    const mine = await h.createApi();
    const res = await h.call('keys.addRoles', await body(), { rootKey: await h.rootKey([`api.${mine}.update_key`, 'rbac.*.add_role_to_key']) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain("'api.*.update_key'");
  });

  test('checked before the roles: an unknown role with a weak root key is a 403, not a 404', async () => {
    const res = await h.call('keys.addRoles', await body(), { rootKey: await h.rootKey(['api.*.update_key']) });
    expectError(res, 403, 'forbidden');
  });
});
