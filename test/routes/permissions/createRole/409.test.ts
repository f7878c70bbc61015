import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createRole → 409', () => {
  const h = useHarness();

  test('a taken name is a conflict; the first role is untouched and no permission is created', async () => {
    const first = (await h.call('permissions.createRole', { name: 'support' })).body.data.roleId;
    const res = await h.call('permissions.createRole', { name: 'support', permissions: ['tickets.read'] });
    expectError(res, 409, 'unkey/data/role_already_exists');
    expect(res.body.error.title).toBe('Conflicting Resource');
    expect(res.body.error.detail).toBe("A role with name 'support' already exists in this workspace");
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'tickets.read')).toBeNull();
    expect((await h.call('permissions.getRole', { role: 'support' })).body.data).toEqual({ id: first, name: 'support' });
  });

  test('names collide case-insensitively (Admin vs admin)', async () => {
    expect((await h.call('permissions.createRole', { name: 'Admin' })).status).toBe(200);
    expectError(await h.call('permissions.createRole', { name: 'admin' }), 409, 'unkey/data/role_already_exists');
  });
});
