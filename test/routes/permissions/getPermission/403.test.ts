import { describe, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getPermission → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.getPermission', () => ({ permission: 'docs.read' }), 'rbac.*.read_permission', ['rbac.*.create_permission', 'rbac.*.read_role']);

  test('checked before the lookup: an unknown permission gives 403, not 404', async () => {
    const key = await h.rootKey(['rbac.*.read_role']);
    const res = await h.call('permissions.getPermission', { permission: 'does.not.exist' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
