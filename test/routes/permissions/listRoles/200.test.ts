import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.listRoles → 200', () => {
  const h = useHarness();

  test('an empty workspace lists nothing', async () => {
    const res = await h.call('permissions.listRoles', {});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('pages in id order with an inclusive cursor; roles carry their permissions', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await h.call('permissions.createRole', { name: `team-${i}`, ...(i === 1 ? { permissions: ['team.read'] } : {}) })).body.data.roleId);
    }
    ids.sort();
    const first = await h.call('permissions.listRoles', { limit: 2 });
    expect(first.body.data.map((r: any) => r.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ cursor: ids[2], hasMore: true });
    const second = await h.call('permissions.listRoles', { limit: 2, cursor: ids[2] });
    expect(second.body.data.map((r: any) => r.id)).toEqual([ids[2]]);
    expect(second.body.pagination).toEqual({ hasMore: false });
    const all = (await h.call('permissions.listRoles', {})).body.data;
    const withPerms = all.find((r: any) => r.name === 'team-1');
    expect(withPerms.permissions.map((p: any) => p.slug)).toEqual(['team.read']);
    expect(all.find((r: any) => r.name === 'team-0').permissions).toBeUndefined();
  });

  test('search is a case-insensitive contains over name and description', async () => {
    await h.call('permissions.createRole', { name: 'Billing Admin' });
    await h.call('permissions.createRole', { name: 'ops', description: 'Handles BILLING escalations' });
    await h.call('permissions.createRole', { name: 'other' });
    const names = (await h.call('permissions.listRoles', { search: 'billing' })).body.data.map((r: any) => r.name).sort();
    expect(names).toEqual(['Billing Admin', 'ops']);
  });
});
