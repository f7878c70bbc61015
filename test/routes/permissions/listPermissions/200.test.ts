import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('permissions.listPermissions → 200', () => {
  const h = useHarness();

  test('an empty workspace lists nothing, hasMore false, no cursor', async () => {
    const res = await h.call('permissions.listPermissions', {});
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('pages in id order with an inclusive cursor; every permission appears exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await h.call('permissions.createPermission', { name: `P${i}`, slug: `page.${i}`, ...(i === 0 ? { description: 'first' } : {}) })).body.data.permissionId);
    }
    ids.sort();
    const first = await h.call('permissions.listPermissions', { limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.data.map((p: any) => p.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ cursor: ids[2], hasMore: true });
    const second = await h.call('permissions.listPermissions', { limit: 2, cursor: first.body.pagination.cursor });
    expect(second.body.data.map((p: any) => p.id)).toEqual(ids.slice(2, 4));
    const third = await h.call('permissions.listPermissions', { limit: 2, cursor: second.body.pagination.cursor });
    expect(third.body.data.map((p: any) => p.id)).toEqual(ids.slice(4));
    expect(third.body.pagination).toEqual({ hasMore: false });
    const all = await h.call('permissions.listPermissions', {});
    const described = all.body.data.find((p: any) => p.slug === 'page.0');
    expect(described).toEqual({ id: described.id, name: 'P0', slug: 'page.0', description: 'first' });
  });

  test('search is a case-insensitive contains over name, slug and description', async () => {
    await h.call('permissions.createPermission', { name: 'Invoices', slug: 'inv.read' });
    await h.call('permissions.createPermission', { name: 'x', slug: 'orders.READ' });
    await h.call('permissions.createPermission', { name: 'y', slug: 'misc', description: 'Refund handling' });
    const slugs = async (search: string) => (await h.call('permissions.listPermissions', { search })).body.data.map((p: any) => p.slug).sort();
    expect(await slugs('INVOICE')).toEqual(['inv.read']);
    expect(await slugs('read')).toEqual(['inv.read', 'orders.READ']);
    expect(await slugs('refund')).toEqual(['misc']);
    expect(await slugs('zzz-nothing')).toEqual([]);
  });
});
