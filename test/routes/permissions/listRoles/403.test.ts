import { describe, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.listRoles → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.listRoles', () => ({}), 'rbac.*.read_role', ['rbac.*.read_permission']);

  test('even an empty listing needs the permission', async () => {
    const key = await h.rootKey(['rbac.*.create_role']);
    const res = await h.call('permissions.listRoles', { search: 'nothing-matches-this' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
