import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getRole → 200', () => {
  const h = useHarness();

  test('found by id and by name (case-insensitively), with its permissions', async () => {
    const roleId = (await h.call('permissions.createRole', { name: 'Auditor', description: 'reads logs', permissions: ['logs.read'] })).body.data.roleId;
    const perm = (await h.call('permissions.getPermission', { permission: 'logs.read' })).body.data;
    const expected = { id: roleId, name: 'Auditor', description: 'reads logs', permissions: [perm] };
    for (const role of [roleId, 'Auditor', 'auditor']) {
      const res = await h.call('permissions.getRole', { role });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(expected);
    }
  });

  test('permissions and description are omitted when empty', async () => {
    await h.call('permissions.createRole', { name: 'bare', description: '' });
    const res = await h.call('permissions.getRole', { role: 'bare' });
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'name']);
  });

  test('rbac.*.read_role alone is enough', async () => {
    await h.call('permissions.createRole', { name: 'visible' });
    const key = await h.rootKey(['rbac.*.read_role']);
    expect((await h.call('permissions.getRole', { role: 'visible' }, { rootKey: key })).status).toBe(200);
  });
});
