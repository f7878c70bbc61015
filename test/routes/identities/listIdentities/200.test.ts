import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('identities.listIdentities → 200', () => {
  const h = useHarness();

  /** Creates identities `<prefix>1..n` and returns their ids in id order. */
  const createIdentities = async (prefix: string, n: number, extra: Record<string, unknown> = {}): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 1; i <= n; i++) ids.push(await h.createIdentity({ externalId: `${prefix}${i}`, ...extra }));
    return ids.sort();
  };

  test('an empty workspace: data [] and hasMore false, and no permission is needed for an empty page', async () => {
    const key = await h.rootKey(['api.*.read_api']);
    for (const rootKey of [h.adminKey, key]) {
      const res = await h.call('identities.listIdentities', {}, { rootKey });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual({ meta: { requestId: res.body.meta.requestId }, data: [], pagination: { hasMore: false } });
    }
  });

  test('items are Identity objects in id order, with meta and limits when they have some', async () => {
    const plain = await h.createIdentity({ externalId: 'shape-plain' });
    const rich = await h.createIdentity({
      externalId: 'shape-rich',
      meta: { plan: 'pro' },
      ratelimits: [{ name: 'requests', limit: 10, duration: 1000, autoApply: true }],
    });
    const res = await h.call('identities.listIdentities', { search: 'shape-' });
    expect(res.status).toBe(200);
    const expected = [
      { id: plain, externalId: 'shape-plain' },
      { id: rich, externalId: 'shape-rich', meta: { plan: 'pro' }, ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'requests', limit: 10, duration: 1000, autoApply: true }] },
    ].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(res.body.data).toEqual(expected);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('5 identities, limit 2: pages of 2, 2, 1; each cursor is the first id of the next page; none twice', async () => {
    const ids = await createIdentities('page-', 5);

    const first = await h.call('identities.listIdentities', { limit: 2, search: 'page-' });
    expect(first.body.data.map((i: any) => i.id)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ hasMore: true, cursor: ids[2] });

    const second = await h.call('identities.listIdentities', { limit: 2, search: 'page-', cursor: first.body.pagination.cursor });
    expect(second.body.data.map((i: any) => i.id)).toEqual(ids.slice(2, 4));
    expect(second.body.pagination).toEqual({ hasMore: true, cursor: ids[4] });

    const third = await h.call('identities.listIdentities', { limit: 2, search: 'page-', cursor: second.body.pagination.cursor });
    expect(third.body.data.map((i: any) => i.id)).toEqual(ids.slice(4));
    expect(third.body.pagination).toEqual({ hasMore: false });
    expect('cursor' in third.body.pagination).toBe(false);

    const seen = [first, second, third].flatMap((r) => r.body.data.map((i: any) => i.id));
    expect(new Set(seen).size).toBe(5);
    expect(seen.sort()).toEqual(ids);
  });

  test('the cursor is an inclusive lower bound on the identity id', async () => {
    const ids = await createIdentities('bound-', 3);
    const res = await h.call('identities.listIdentities', { search: 'bound-', cursor: ids[1] });
    expect(res.body.data.map((i: any) => i.id)).toEqual(ids.slice(1));
    const none = await h.call('identities.listIdentities', { search: 'bound-', cursor: 'id_zzzzzzzzzzzzzzzzzzzz' });
    expect(none.body).toMatchObject({ data: [], pagination: { hasMore: false } });
  });

  test('search matches the externalId or the id, case-insensitively, and is trimmed', async () => {
    const mixed = await h.createIdentity({ externalId: 'MixedCase-Org' });
    await h.createIdentity({ externalId: 'unrelated-org' });
    for (const search of ['mixedcase', 'MIXEDCASE-ORG', '  case-o  ', mixed, mixed.slice(3, 12).toLowerCase()]) {
      const res = await h.call('identities.listIdentities', { search });
      expect(res.status).toBe(200);
      expect(res.body.data.map((i: any) => i.id)).toEqual([mixed]);
    }
  });

  test('a search that matches nothing is an empty page', async () => {
    const res = await h.call('identities.listIdentities', { search: 'no-such-identity-anywhere' });
    expect(res.body).toMatchObject({ data: [], pagination: { hasMore: false } });
  });

  test('without limit, pages hold 100 identities', async () => {
    const ids = await createIdentities('bulk-', 101);
    const res = await h.call('identities.listIdentities', { search: 'bulk-' });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data.map((i: any) => i.id)).toEqual(ids.slice(0, 100));
    expect(res.body.pagination).toEqual({ hasMore: true, cursor: ids[100] });
  });

  test('a deleted identity is not listed', async () => {
    const [kept, gone] = await createIdentities('churn-', 2);
    expect((await h.call('identities.deleteIdentity', { identity: gone })).status).toBe(200);
    const res = await h.call('identities.listIdentities', { search: 'churn-' });
    expect(res.body.data.map((i: any) => i.id)).toEqual([kept]);
  });

  test('a root key scoped to one identity lists a page holding only that identity', async () => {
    const mine = await h.createIdentity({ externalId: 'scoped-only-me' });
    const key = await h.rootKey([`identity.${mine}.read_identity`]);
    const res = await h.call('identities.listIdentities', { search: 'scoped-only-me' }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: mine, externalId: 'scoped-only-me' }]);
  });

  test('identity.*.read_identity lists everything', async () => {
    const key = await h.rootKey(['identity.*.read_identity']);
    const res = await h.call('identities.listIdentities', { limit: 100 }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination.hasMore).toBe(true);
  });
});
