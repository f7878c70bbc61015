import { describe, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getRole → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'permissions.getRole', () => ({ role: 'editor' }), 'rbac.*.read_role', ['rbac.*.read_permission', 'rbac.*.create_role']);

  test('checked before the lookup: an unknown role gives 403, not 404', async () => {
    const key = await h.rootKey(['rbac.*.read_permission']);
    const res = await h.call('permissions.getRole', { role: 'no-such-role' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
