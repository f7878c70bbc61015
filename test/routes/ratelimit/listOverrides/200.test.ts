import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, MINUTE, setOverride, softDeleteNamespace } from '../support.js';

describe('ratelimit.listOverrides → 200', () => {
  const h = useHarness();
  const list = (body: Record<string, unknown>, rootKey?: string) =>
    h.call('ratelimit.listOverrides', body, rootKey === undefined ? {} : { rootKey });

  test('lists the live overrides of the namespace in id order, with every field', async () => {
    const ns = await existingNamespace(h);
    const other = await existingNamespace(h);
    const ids = [await setOverride(h, ns.name, 'a', 1), await setOverride(h, ns.name, 'b_*', 0, 2 * MINUTE), await setOverride(h, ns.name, 'c', 3)];
    await setOverride(h, other.name, 'elsewhere', 1);
    await h.call('ratelimit.deleteOverride', { namespace: ns.name, identifier: 'c' });
    const res = await list({ namespace: ns.id });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ hasMore: false });
    const expected = [
      { overrideId: ids[0], identifier: 'a', limit: 1, duration: MINUTE },
      { overrideId: ids[1], identifier: 'b_*', limit: 0, duration: 2 * MINUTE },
    ].sort((x, y) => (x.overrideId! < y.overrideId! ? -1 : 1));
    expect(res.body.data).toEqual(expected);
  });

  test('a namespace without overrides lists nothing', async () => {
    const ns = await existingNamespace(h);
    const res = await list({ namespace: ns.name });
    expect(res.body).toMatchObject({ data: [], pagination: { hasMore: false } });
    expect(res.body.pagination.cursor).toBeUndefined();
  });

  test('pages with an inclusive cursor: the first id of the next page; default page size 50', async () => {
    const ns = await existingNamespace(h);
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push(await setOverride(h, ns.name, `user_${i}`, i));
    ids.sort();
    const first = await list({ namespace: ns.name });
    expect(first.body.data).toHaveLength(50);
    expect(first.body.data.map((o: any) => o.overrideId)).toEqual(ids.slice(0, 50));
    expect(first.body.pagination).toEqual({ hasMore: true, cursor: ids[50] });
    const rest = await list({ namespace: ns.name, cursor: first.body.pagination.cursor });
    expect(rest.body.data.map((o: any) => o.overrideId)).toEqual(ids.slice(50));
    expect(rest.body.pagination).toEqual({ hasMore: false });

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ namespace: ns.name, limit: 10, ...(cursor ? { cursor } : {}) });
      expect(page.body.data.length).toBeLessThanOrEqual(10);
      seen.push(...page.body.data.map((o: any) => o.overrideId));
      cursor = page.body.pagination.cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect((await list({ namespace: ns.name, limit: 100 })).body.data).toHaveLength(53);
  });

  test('an unknown cursor is a lower bound', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 1);
    expect((await list({ namespace: ns.name, cursor: 'rlor_' })).body.data).toHaveLength(1);
    expect((await list({ namespace: ns.name, cursor: 'zzz' })).body.data).toEqual([]);
    expect((await list({ namespace: ns.name, cursor: 'z'.repeat(1024) })).body.data).toEqual([]);
  });

  test('a soft-deleted namespace still lists its overrides, as in Unkey', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'u', 1);
    await softDeleteNamespace(h, ns.name);
    const res = await list({ namespace: ns.name });
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => o.overrideId)).toEqual([overrideId]);
  });

  test('ratelimit.<namespaceId>.read_override is enough', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 1);
    const key = await h.rootKey([`ratelimit.${ns.id}.read_override`]);
    const res = await list({ namespace: ns.name }, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });
});
