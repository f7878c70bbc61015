import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getPermission → 200', () => {
  const h = useHarness();

  test('found by id and by slug, with Unkey\'s Permission shape', async () => {
    const permissionId = (await h.call('permissions.createPermission', { name: 'Write', slug: 'docs.write', description: 'may write' })).body.data.permissionId;
    const expected = { id: permissionId, name: 'Write', slug: 'docs.write', description: 'may write' };
    const byId = await h.call('permissions.getPermission', { permission: permissionId });
    expect(byId.status).toBe(200);
    expect(byId.body.data).toEqual(expected);
    const bySlug = await h.call('permissions.getPermission', { permission: 'docs.write' });
    expect(bySlug.body.data).toEqual(expected);
  });

  test('the slug lookup is case-insensitive and answers the stored slug', async () => {
    await h.call('permissions.createPermission', { name: 'Mixed', slug: 'Mixed.Case' });
    const res = await h.call('permissions.getPermission', { permission: 'mixed.case' });
    expect(res.status).toBe(200);
    expect(res.body.data.slug).toBe('Mixed.Case');
  });

  test('description is omitted when there is none', async () => {
    await h.call('permissions.createPermission', { name: 'Plain', slug: 'plain' });
    const res = await h.call('permissions.getPermission', { permission: 'plain' });
    expect(Object.keys(res.body.data).sort()).toEqual(['id', 'name', 'slug']);
  });

  test('rbac.*.read_permission alone is enough', async () => {
    await h.call('permissions.createPermission', { name: 'R', slug: 'reader.only' });
    const key = await h.rootKey(['rbac.*.read_permission']);
    expect((await h.call('permissions.getPermission', { permission: 'reader.only' }, { rootKey: key })).status).toBe(200);
  });
});
