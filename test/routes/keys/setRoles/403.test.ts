import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setRoles → 403', () => {
  const h = useHarness();
  const body = async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, roles: [] });

  // The rbac actions alone are not enough: setRoles asks only for update_key.
  describeForbiddenCase(h, 'keys.setRoles', body, 'api.*.update_key', ['rbac.*.add_role_to_key', 'rbac.*.remove_role_from_key']);

  test('refused: the key keeps its roles', async () => {
    expect((await h.call('permissions.createRole', { name: 'sr_kept', permissions: ['sr.kept'] })).status).toBe(200);
    const mine = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_kept'] });
    const res = await h.call('keys.setRoles', { keyId, roles: [] }, { rootKey: await h.rootKey([`api.${mine}.update_key`]) });
    expectError(res, 403, 'forbidden');
    expect((await h.call('keys.getKey', { keyId })).body.data.roles).toEqual(['sr_kept']);
    expect((await h.verify(key, { permissions: 'sr.kept' })).body.data.code).toBe('VALID');
  });
});
