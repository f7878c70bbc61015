import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, MINUTE } from '../support.js';

describe('ratelimit.setOverride → 200', () => {
  const h = useHarness();
  const get = (namespace: string, identifier: string) => h.call('ratelimit.getOverride', { namespace, identifier });

  test('creates an override, answering only its id; getOverride shows it', async () => {
    const ns = await existingNamespace(h);
    const res = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'user_1', limit: 5, duration: 30_000 });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.body.data).toEqual({ overrideId: expect.stringMatching(/^rlor_/) });
    expect((await get(ns.name, 'user_1')).body.data).toEqual({ overrideId: res.body.data.overrideId, identifier: 'user_1', limit: 5, duration: 30_000 });
  });

  test('is an upsert on (namespace, identifier): the id stays, limit and duration change', async () => {
    const ns = await existingNamespace(h);
    const first = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'u', limit: 5, duration: MINUTE });
    const second = await h.call('ratelimit.setOverride', { namespace: ns.id, identifier: 'u', limit: 9, duration: 2 * MINUTE });
    expect(second.body.data.overrideId).toBe(first.body.data.overrideId);
    expect((await get(ns.name, 'u')).body.data).toEqual({ overrideId: first.body.data.overrideId, identifier: 'u', limit: 9, duration: 2 * MINUTE });
    const list = await h.call('ratelimit.listOverrides', { namespace: ns.name });
    expect(list.body.data).toHaveLength(1);
  });

  test('identifiers are case-sensitive: `U` and `u` are two overrides', async () => {
    const ns = await existingNamespace(h);
    const lower = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE });
    const upper = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'U', limit: 2, duration: MINUTE });
    expect(upper.body.data.overrideId).not.toBe(lower.body.data.overrideId);
  });

  test('accepts limit 0, patterns, any characters, and a duration longer than 30 days', async () => {
    const ns = await existingNamespace(h);
    for (const [identifier, limit, duration] of [['blocked_*', 0, 1000], ['*@example.com', 3, 40 * 86_400_000], ['ü ✓ "quoted"', 1, MINUTE]] as const) {
      const res = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier, limit, duration });
      expect(res.status).toBe(200);
      expect((await get(ns.name, identifier)).body.data).toMatchObject({ identifier, limit, duration });
    }
  });

  test('the same identifier in two namespaces is two overrides', async () => {
    const a = await existingNamespace(h);
    const b = await existingNamespace(h);
    const identifier = fresh('shared');
    const one = await h.call('ratelimit.setOverride', { namespace: a.name, identifier, limit: 1, duration: MINUTE });
    const two = await h.call('ratelimit.setOverride', { namespace: b.name, identifier, limit: 2, duration: MINUTE });
    expect(one.body.data.overrideId).not.toBe(two.body.data.overrideId);
    expect((await get(a.name, identifier)).body.data.limit).toBe(1);
    expect((await get(b.name, identifier)).body.data.limit).toBe(2);
  });

  test('ratelimit.<namespaceId>.set_override is enough', async () => {
    const ns = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${ns.id}.set_override`]);
    const res = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE }, { rootKey: key });
    expect(res.status).toBe(200);
  });
});
