import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.listNamespaces → 200', () => {
  const h = useHarness();

  const touch = async (namespace: string): Promise<void> => {
    const res = await h.call('ratelimit.limit', { namespace, identifier: 'u1', limit: 10, duration: 60_000 });
    expect(res.status).toBe(200);
  };

  test('namespaces made by ratelimit.limit, in id order; search over name and id; pages', async () => {
    for (const name of ['sms', 'email.outbound', 'Email.Inbound']) await touch(name);
    const all = await h.call('ratelimit.listNamespaces', {});
    expect(all.status).toBe(200);
    const names = all.body.data.map((n: any) => n.name);
    expect([...names].sort()).toEqual(['Email.Inbound', 'email.outbound', 'sms']);
    const ids = all.body.data.map((n: any) => n.id);
    expect(ids).toEqual([...ids].sort());
    expect(all.body.data[0]).toEqual({ id: expect.stringMatching(/^rlns_/), name: expect.any(String) });

    const email = await h.call('ratelimit.listNamespaces', { search: 'EMAIL' });
    expect(email.body.data.map((n: any) => n.name).sort()).toEqual(['Email.Inbound', 'email.outbound']);
    const byId = await h.call('ratelimit.listNamespaces', { search: ids[1] });
    expect(byId.body.data.map((n: any) => n.id)).toEqual([ids[1]]);

    const first = await h.call('ratelimit.listNamespaces', { limit: 2 });
    expect(first.body.pagination).toEqual({ hasMore: true, cursor: ids[2] });
    const rest = await h.call('ratelimit.listNamespaces', { limit: 2, cursor: ids[2] });
    expect(rest.body.data.map((n: any) => n.id)).toEqual([ids[2]]);
  });

  test('a key granted one namespace sees only it', async () => {
    await touch('scoped-ns');
    const ns = (await h.call('ratelimit.listNamespaces', { search: 'scoped-ns' })).body.data[0];
    const key = await h.rootKey([`ratelimit.${ns.id}.read_namespace`]);
    const res = await h.call('ratelimit.listNamespaces', {}, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: ns.id, name: 'scoped-ns' }]);
  });
});
