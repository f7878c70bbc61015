import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.deleteRole → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.deleteRole', () => ({ role: 'editor' }), 'rbac.*.delete_role', ['rbac.*.read_role', 'rbac.*.delete_permission']);

  test('the role survives a forbidden delete', async () => {
    await h.call('permissions.createRole', { name: 'keeper' });
    const key = await h.rootKey(['rbac.*.delete_permission']);
    const res = await h.call('permissions.deleteRole', { role: 'keeper' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(await h.keygate.services.storage.roles.findByName(WORKSPACE_ID, 'keeper')).not.toBeNull();
  });

  test('checked before the lookup: an unknown role gives 403, not 404', async () => {
    const key = await h.rootKey(['rbac.*.read_role']);
    const res = await h.call('permissions.deleteRole', { role: 'no-such-role' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
