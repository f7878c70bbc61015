import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('apis.listKeys → 200', () => {
  const h = useHarness();

  const createKeys = async (apiId: string, n: number, extra: Record<string, unknown> = {}): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await h.createKey({ apiId, ...extra })).keyId);
    return ids.sort();
  };

  test('an API without keys: data [] and hasMore false without a cursor', async () => {
    const apiId = await h.createApi('empty');
    const res = await h.call('apis.listKeys', { apiId });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body).toEqual({ meta: { requestId: res.body.meta.requestId }, data: [], pagination: { hasMore: false } });
  });

  test('items are KeyResponseData with identity (meta and limits) and credits; empty fields are omitted', async () => {
    const apiId = await h.createApi('described');
    const identityId = await h.createIdentity({
      externalId: 'listed-owner',
      meta: { tier: 'gold' },
      ratelimits: [{ name: 'org-requests', limit: 100, duration: 60000, autoApply: false }],
    });
    const before = Date.now();
    const full = await h.createKey({
      apiId,
      prefix: 'lk',
      name: 'full key',
      externalId: 'listed-owner',
      meta: { plan: 'pro' },
      expires: 4102444800000,
      permissions: ['documents.read', 'documents.read', 'documents.write'],
      credits: { remaining: 42, refill: { interval: 'monthly', amount: 100, refillDay: 15 } },
      ratelimits: [{ name: 'requests', limit: 10, duration: 1000, autoApply: true }],
    });
    const bare = await h.createKey({ apiId });

    const res = await h.call('apis.listKeys', { apiId });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ hasMore: false });
    expect(res.body.data).toHaveLength(2);
    const byId = new Map(res.body.data.map((k: any) => [k.keyId, k]));

    const f: any = byId.get(full.keyId);
    expect(f.start).toBe(full.key.slice(0, 'lk_'.length + 4));
    expect(f.createdAt).toBeGreaterThanOrEqual(before);
    expect(f).toEqual({
      keyId: full.keyId,
      start: f.start,
      enabled: true,
      name: 'full key',
      meta: { plan: 'pro' },
      createdAt: f.createdAt,
      expires: 4102444800000,
      permissions: expect.arrayContaining(['documents.read', 'documents.write']),
      credits: { remaining: 42, refill: { interval: 'monthly', amount: 100, refillDay: 15 } },
      identity: {
        id: identityId,
        externalId: 'listed-owner',
        meta: { tier: 'gold' },
        ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'org-requests', limit: 100, duration: 60000, autoApply: false }],
      },
      ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'requests', limit: 10, duration: 1000, autoApply: true }],
    });
    expect(f.permissions).toHaveLength(2);

    const b: any = byId.get(bare.keyId);
    expect(Object.keys(b).sort()).toEqual(['createdAt', 'enabled', 'keyId', 'start']);
    // Never a secret: not the key, not its hash.
    expect(JSON.stringify(res.body)).not.toContain(full.key);
    expect(JSON.stringify(res.body)).not.toContain(bare.key);
  });

  test('permissions are the key\'s own slugs and those of its roles, without duplicates', async () => {
    const apiId = await h.createApi('roles');
    const role = await h.call('permissions.createRole', { name: 'listed-editor', permissions: ['docs.read', 'docs.write'] });
    expect(role.status).toBe(200);
    const { keyId } = await h.createKey({ apiId, permissions: ['docs.read', 'billing.read'], roles: ['listed-editor'] });
    const res = await h.call('apis.listKeys', { apiId });
    const listed = res.body.data.find((k: any) => k.keyId === keyId);
    expect([...listed.permissions].sort()).toEqual(['billing.read', 'docs.read', 'docs.write']);
    expect(listed.roles).toEqual(['listed-editor']);
  });

  test('credits reflect verifications; a disabled key is listed with enabled false', async () => {
    const apiId = await h.createApi('state');
    const { key, keyId } = await h.createKey({ apiId, credits: { remaining: 3 } });
    const disabled = await h.createKey({ apiId, enabled: false });
    await h.verify(key);
    const res = await h.call('apis.listKeys', { apiId });
    const byId = new Map(res.body.data.map((k: any) => [k.keyId, k]));
    expect((byId.get(keyId) as any).credits).toEqual({ remaining: 2 });
    expect((byId.get(disabled.keyId) as any).enabled).toBe(false);
  });

  test('keys come in id order and only those of the API asked for', async () => {
    const apiId = await h.createApi('ordered');
    const other = await h.createApi('other');
    const ids = await createKeys(apiId, 6);
    await createKeys(other, 3);
    const res = await h.call('apis.listKeys', { apiId });
    expect(res.body.data.map((k: any) => k.keyId)).toEqual(ids);
  });

  test('5 keys, limit 2: pages of 2, 2, 1; each cursor is the first id of the next page; no key twice', async () => {
    const apiId = await h.createApi('paged');
    const ids = await createKeys(apiId, 5);

    const first = await h.call('apis.listKeys', { apiId, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.data.map((k: any) => k.keyId)).toEqual(ids.slice(0, 2));
    expect(first.body.pagination).toEqual({ hasMore: true, cursor: ids[2] });

    const second = await h.call('apis.listKeys', { apiId, limit: 2, cursor: first.body.pagination.cursor });
    expect(second.body.data.map((k: any) => k.keyId)).toEqual(ids.slice(2, 4));
    expect(second.body.pagination).toEqual({ hasMore: true, cursor: ids[4] });

    const third = await h.call('apis.listKeys', { apiId, limit: 2, cursor: second.body.pagination.cursor });
    expect(third.body.data.map((k: any) => k.keyId)).toEqual(ids.slice(4));
    expect(third.body.pagination).toEqual({ hasMore: false });
    expect('cursor' in third.body.pagination).toBe(false);

    const seen = [first, second, third].flatMap((r) => r.body.data.map((k: any) => k.keyId));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(ids);
  });

  test('a page that is exactly full has hasMore false', async () => {
    const apiId = await h.createApi('exact');
    const ids = await createKeys(apiId, 3);
    const res = await h.call('apis.listKeys', { apiId, limit: 3 });
    expect(res.body.data.map((k: any) => k.keyId)).toEqual(ids);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('the cursor is an inclusive lower bound on the key id; any string is accepted', async () => {
    const apiId = await h.createApi('bounds');
    const ids = await createKeys(apiId, 4);
    const from = await h.call('apis.listKeys', { apiId, cursor: ids[1] });
    expect(from.body.data.map((k: any) => k.keyId)).toEqual(ids.slice(1));
    const all = await h.call('apis.listKeys', { apiId, cursor: 'key_' });
    expect(all.body.data.map((k: any) => k.keyId)).toEqual(ids);
    const none = await h.call('apis.listKeys', { apiId, cursor: 'zzz' });
    expect(none.body).toMatchObject({ data: [], pagination: { hasMore: false } });
    const empty = await h.call('apis.listKeys', { apiId, cursor: '' });
    expect(empty.body.data.map((k: any) => k.keyId)).toEqual(ids);
  });

  test('without limit, pages hold 100 keys', async () => {
    const apiId = await h.createApi('default-limit');
    const ids = await createKeys(apiId, 101);
    const res = await h.call('apis.listKeys', { apiId });
    expect(res.body.data).toHaveLength(100);
    expect(res.body.pagination).toEqual({ hasMore: true, cursor: ids[100] });
    const max = await h.call('apis.listKeys', { apiId, limit: 100, cursor: ids[100] });
    expect(max.body.data.map((k: any) => k.keyId)).toEqual([ids[100]]);
    expect(max.body.pagination).toEqual({ hasMore: false });
  });

  test('externalId filters to the keys of that identity, and pages within them', async () => {
    const apiId = await h.createApi('by-owner');
    const mine = await createKeys(apiId, 3, { externalId: 'filter-me' });
    await createKeys(apiId, 2, { externalId: 'someone-else' });
    await createKeys(apiId, 2);
    const res = await h.call('apis.listKeys', { apiId, externalId: 'filter-me' });
    expect(res.body.data.map((k: any) => k.keyId)).toEqual(mine);
    for (const k of res.body.data) expect(k.identity.externalId).toBe('filter-me');

    const page = await h.call('apis.listKeys', { apiId, externalId: 'filter-me', limit: 2 });
    expect(page.body.data.map((k: any) => k.keyId)).toEqual(mine.slice(0, 2));
    expect(page.body.pagination).toEqual({ hasMore: true, cursor: mine[2] });
    const rest = await h.call('apis.listKeys', { apiId, externalId: 'filter-me', limit: 2, cursor: page.body.pagination.cursor });
    expect(rest.body.data.map((k: any) => k.keyId)).toEqual(mine.slice(2));
    expect(rest.body.pagination).toEqual({ hasMore: false });
  });

  test('an unknown externalId gives an empty page, not a 404', async () => {
    const apiId = await h.createApi('no-owner');
    await createKeys(apiId, 2);
    const res = await h.call('apis.listKeys', { apiId, externalId: 'nobody-here' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('keys of a deleted identity are listed without identity, and its externalId filters nothing', async () => {
    const apiId = await h.createApi('orphans');
    const [keyId] = await createKeys(apiId, 1, { externalId: 'short-lived' });
    expect((await h.call('identities.deleteIdentity', { identity: 'short-lived' })).status).toBe(200);
    const res = await h.call('apis.listKeys', { apiId });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].keyId).toBe(keyId);
    expect(res.body.data[0].identity).toBeUndefined();
    expect((await h.call('apis.listKeys', { apiId, externalId: 'short-lived' })).body.data).toEqual([]);
  });

  test('revalidateKeysCache is accepted (and changes nothing)', async () => {
    const apiId = await h.createApi('revalidate');
    const ids = await createKeys(apiId, 2);
    const res = await h.call('apis.listKeys', { apiId, revalidateKeysCache: true });
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: any) => k.keyId)).toEqual(ids);
  });

  test('wildcard tuples and tuples naming the API both grant the listing', async () => {
    const apiId = await h.createApi('granted');
    const ids = await createKeys(apiId, 1);
    for (const grants of [['api.*.read_key', 'api.*.read_api'], [`api.${apiId}.read_key`, `api.${apiId}.read_api`], ['api.*.read_key', `api.${apiId}.read_api`]]) {
      const res = await h.call('apis.listKeys', { apiId }, { rootKey: await h.rootKey(grants) });
      expect(res.status).toBe(200);
      expect(res.body.data.map((k: any) => k.keyId)).toEqual(ids);
    }
  });
});
