import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removeRoles → 403', () => {
  const h = useHarness();
  const body = async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, roles: ['rr_any'] });

  // The rbac action alone is not enough: removeRoles asks only for update_key.
  describeForbiddenCase(h, 'keys.removeRoles', body, 'api.*.update_key', ['rbac.*.remove_role_from_key', 'api.*.read_key']);

  test('a root key scoped to another API is refused; the role stays on the key', async () => {
    expect((await h.call('permissions.createRole', { name: 'rr_kept', permissions: ['rr.kept'] })).status).toBe(200);
    const mine = await h.createApi();
    const other = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId: other, roles: ['rr_kept'] });
    const res = await h.call('keys.removeRoles', { keyId, roles: ['rr_kept'] }, { rootKey: await h.rootKey([`api.${mine}.update_key`]) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.update_key' or 'api.${other}.update_key'.`);
    expect((await h.verify(key, { permissions: 'rr.kept' })).body.data.code).toBe('VALID');
  });
});
