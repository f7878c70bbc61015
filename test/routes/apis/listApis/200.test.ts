import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('apis.listApis → 200', () => {
  const h = useHarness();

  test('live APIs in id order, paginated by cursor; deleted ones are gone', async () => {
    const ids = [await h.createApi('one'), await h.createApi('two'), await h.createApi('three'), await h.createApi('four')];
    await h.call('apis.deleteApi', { apiId: ids[3] });
    const live = ids.slice(0, 3).sort();

    const all = await h.call('apis.listApis', {});
    expect(all.status).toBe(200);
    expect(all.body.data.map((a: any) => a.id)).toEqual(live);
    expect(all.body.data[0]).toEqual({ id: live[0], name: expect.any(String) });
    expect(all.body.pagination).toEqual({ hasMore: false });

    const first = await h.call('apis.listApis', { limit: 2 });
    expect(first.body.data.map((a: any) => a.id)).toEqual(live.slice(0, 2));
    expect(first.body.pagination).toEqual({ hasMore: true, cursor: live[2] });
    const second = await h.call('apis.listApis', { limit: 2, cursor: first.body.pagination.cursor });
    expect(second.body.data.map((a: any) => a.id)).toEqual(live.slice(2));
    expect(second.body.pagination).toEqual({ hasMore: false });
  });

  test('a key scoped to some APIs sees only those, with pages of the right size', async () => {
    const mine = [await h.createApi('mine-a'), await h.createApi('mine-b'), await h.createApi('mine-c')];
    const scoped = await h.rootKey(mine.map((id) => `api.${id}.read_api`));
    const res = await h.call('apis.listApis', {}, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: any) => a.id)).toEqual([...mine].sort());

    const pages: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await h.call('apis.listApis', { limit: 1, ...(cursor ? { cursor } : {}) }, { rootKey: scoped });
      expect(page.body.data.length).toBeLessThanOrEqual(1);
      pages.push(...page.body.data.map((a: any) => a.id));
      if (!page.body.pagination.hasMore) break;
      cursor = page.body.pagination.cursor;
    }
    expect(pages).toEqual([...mine].sort());
  });
});
