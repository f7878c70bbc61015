import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.revokeRootKey → 403', () => {
  const h = useHarness();

  // Checked before the lookup: the 403 says nothing about which ids exist.
  describeForbiddenCase(h, 'rootKeys.revokeRootKey', () => ({ rootKeyId: 'rk_doesnotexist' }), 'root_key.*.revoke_root_key', ['root_key.*.read_root_key']);

  test('a narrow key cannot revoke a broader one (no lock-out of the admin); the broader key keeps working', async () => {
    const narrow = await h.rootKey(['root_key.*.revoke_root_key']);
    const admin = (await h.call('rootKeys.createRootKey', { name: 'admin', permissions: ['root_key.*.revoke_root_key', 'api.*.create_api'] })).body.data;
    const res = await h.call('rootKeys.revokeRootKey', { rootKeyId: admin.rootKeyId }, { rootKey: narrow });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain("'api.*.create_api'");
    expect((await h.call('apis.createApi', { name: 'still-works' }, { rootKey: admin.key })).status).toBe(200);
  });
});
