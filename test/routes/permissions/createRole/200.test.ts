import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createRole → 200', () => {
  const h = useHarness();

  test('creates a role without permissions and returns only its id', async () => {
    const res = await h.call('permissions.createRole', { name: 'viewer', description: 'reads things' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toEqual(['roleId']);
    expect(res.body.data.roleId).toMatch(/^role_[1-9A-HJ-NP-Za-km-z]+$/);
    const got = await h.call('permissions.getRole', { role: res.body.data.roleId });
    expect(got.body.data).toEqual({ id: res.body.data.roleId, name: 'viewer', description: 'reads things' });
  });

  test('existing slugs are linked, missing ones created (name = slug), case-insensitive duplicates ignored', async () => {
    const existing = (await h.call('permissions.createPermission', { name: 'Read', slug: 'docs.read' })).body.data.permissionId;
    const res = await h.call('permissions.createRole', { name: 'writer', permissions: ['docs.read', 'docs.write', 'DOCS.WRITE', 'docs.read'] });
    expect(res.status).toBe(200);
    const created = await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'docs.write');
    expect(created).toMatchObject({ name: 'docs.write', slug: 'docs.write' });
    const role = (await h.call('permissions.getRole', { role: 'writer' })).body.data;
    expect(role.permissions).toEqual([
      { id: existing, name: 'Read', slug: 'docs.read' },
      { id: created!.id, name: 'docs.write', slug: 'docs.write' },
    ]);
  });

  test('a slug given in another case links the existing permission instead of creating one', async () => {
    const existing = (await h.call('permissions.createPermission', { name: 'Admin', slug: 'admin' })).body.data.permissionId;
    await h.call('permissions.createRole', { name: 'admins', permissions: ['ADMIN'] });
    const role = (await h.call('permissions.getRole', { role: 'admins' })).body.data;
    expect(role.permissions).toEqual([{ id: existing, name: 'Admin', slug: 'admin' }]);
  });

  test('a name of 128 characters is accepted', async () => {
    expect((await h.call('permissions.createRole', { name: 'r'.repeat(128) })).status).toBe(200);
  });
});
