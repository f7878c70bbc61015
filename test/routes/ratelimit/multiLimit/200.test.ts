import { beforeEach, describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';
import { existingNamespace, fresh, MINUTE, setOverride, windowEnd } from '../support.js';

describe('ratelimit.multiLimit → 200', () => {
  const h = useHarness();
  beforeEach(async () => { await waitForWindowRoom(MINUTE); });

  const item = (namespace: string, identifier: string, limit: number, extra: Record<string, unknown> = {}) =>
    ({ namespace, identifier, limit, duration: MINUTE, ...extra });
  const multi = (items: unknown[], rootKey?: string) => h.call('ratelimit.multiLimit', items, rootKey === undefined ? {} : { rootKey });
  const peek = async (namespace: string, identifier: string, limit: number): Promise<number> =>
    (await h.call('ratelimit.limit', item(namespace, identifier, limit, { cost: 0 }))).body.data.remaining;

  test('a JSON array body: every check passes and is consumed; one entry per item in order', async () => {
    const a = fresh('multi-a');
    const b = fresh('multi-b');
    const res = await multi([item(a, 'u1', 5, { cost: 2 }), item(b, 'u1', 3), item(a, 'u2', 1)]);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const reset = windowEnd(Date.now());
    expect(res.body.data).toEqual({
      passed: true,
      limits: [
        { namespace: a, identifier: 'u1', limit: 5, remaining: 3, reset, passed: true },
        { namespace: b, identifier: 'u1', limit: 3, remaining: 2, reset, passed: true },
        { namespace: a, identifier: 'u2', limit: 1, remaining: 0, reset, passed: true },
      ],
    });
    expect(await peek(a, 'u1', 5)).toBe(3);
    expect(await peek(b, 'u1', 3)).toBe(2);
  });

  test('all or nothing: one failing check consumes nothing; each item reports its own outcome', async () => {
    const ns = fresh('atomic');
    expect((await multi([item(ns, 'full', 1)])).body.data.passed).toBe(true);
    const res = await multi([item(ns, 'free', 5, { cost: 2 }), item(ns, 'full', 1), item(ns, 'other', 3)]);
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.limits.map((l: any) => [l.passed, l.remaining])).toEqual([[true, 5], [false, 0], [true, 3]]);
    expect(await peek(ns, 'free', 5)).toBe(5);
    expect(await peek(ns, 'other', 3)).toBe(3);
  });

  test('every item is decided at one timestamp: items of equal duration share one reset', async () => {
    const ns = fresh('same-time');
    const items = Array.from({ length: 100 }, (_, i) => item(ns, `id_${i}`, 10));
    const res = await multi(items);
    expect(res.body.data.limits).toHaveLength(100);
    expect(new Set(res.body.data.limits.map((l: any) => l.reset)).size).toBe(1);
  });

  test('the same counter twice in one batch sees its own earlier cost', async () => {
    const ns = fresh('twice');
    const res = await multi([item(ns, 'u', 3, { cost: 2 }), item(ns, 'u', 3, { cost: 2 })]);
    expect(res.body.data.passed).toBe(false);
    expect(res.body.data.limits.map((l: any) => l.passed)).toEqual([true, false]);
    expect(await peek(ns, 'u', 3)).toBe(3);
  });

  test('overrides apply per item, like ratelimit.limit, with their overrideId', async () => {
    const ns = await existingNamespace(h);
    const exact = await setOverride(h, ns.name, 'vip', 50);
    const blocked = await setOverride(h, ns.name, 'bot_*', 0);
    const ok = await multi([item(ns.name, 'vip', 1), item(ns.id, 'plain', 4)]);
    expect(ok.body.data.passed).toBe(true);
    expect(ok.body.data.limits[0]).toMatchObject({ namespace: ns.name, limit: 50, remaining: 49, overrideId: exact });
    expect(ok.body.data.limits[1]).toMatchObject({ namespace: ns.id, limit: 4, remaining: 3 });
    expect(ok.body.data.limits[1].overrideId).toBeUndefined();
    // A limit-0 override denies even at cost 0, and so the whole batch.
    const denied = await multi([item(ns.name, 'vip', 1), item(ns.name, 'bot_7', 10, { cost: 0 })]);
    expect(denied.body.data.passed).toBe(false);
    expect(denied.body.data.limits[1]).toMatchObject({ passed: false, limit: 0, remaining: 0, overrideId: blocked });
    expect(denied.body.data.limits[0]).toMatchObject({ passed: true, remaining: 49 });
  });

  test('missing namespaces are created with create_namespace and ratelimit.*.limit', async () => {
    const a = fresh('new-a');
    const b = fresh('new-b');
    const key = await h.rootKey(['ratelimit.*.create_namespace', 'ratelimit.*.limit']);
    const res = await multi([item(a, 'u', 2), item(b, 'u', 2), item(a, 'v', 2)], key);
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(true);
    const ids = await Promise.all([a, b].map((n) => h.keygate.services.storage.namespaces.find(WORKSPACE_ID, n)));
    expect(ids.map((r) => r?.id)).toEqual([expect.stringMatching(/^rlns_/), expect.stringMatching(/^rlns_/)]);
  });

  test('per-namespace limit grants for every namespace suffice', async () => {
    const a = await existingNamespace(h);
    const b = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${a.id}.limit`, `ratelimit.${b.id}.limit`]);
    const res = await multi([item(a.name, 'u', 2), item(b.id, 'u', 2)], key);
    expect(res.status).toBe(200);
    expect(res.body.data.passed).toBe(true);
  });
});
