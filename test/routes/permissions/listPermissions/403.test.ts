import { describe, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.listPermissions → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.listPermissions', () => ({}), 'rbac.*.read_permission', ['rbac.*.read_role']);

  test('even an empty listing needs the permission', async () => {
    const key = await h.rootKey(['rbac.*.create_permission']);
    const res = await h.call('permissions.listPermissions', { search: 'nothing-matches-this' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
