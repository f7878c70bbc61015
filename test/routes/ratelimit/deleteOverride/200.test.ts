import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';
import { existingNamespace, MINUTE, setOverride } from '../support.js';

describe('ratelimit.deleteOverride → 200', () => {
  const h = useHarness();
  const del = (namespace: string, identifier: string, rootKey?: string) =>
    h.call('ratelimit.deleteOverride', { namespace, identifier }, rootKey === undefined ? {} : { rootKey });

  test('deletes by exact identifier, answers an empty object, and the override stops applying at once', async () => {
    await waitForWindowRoom(MINUTE);
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'user_1', 1);
    const res = await del(ns.name, 'user_1');
    expect(res.status).toBe(200);
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.body.data).toEqual({});
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'user_1' })).status).toBe(404);
    expect((await h.call('ratelimit.listOverrides', { namespace: ns.name })).body.data).toEqual([]);
    const limited = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'user_1', limit: 10, duration: MINUTE });
    expect(limited.body.data).toMatchObject({ success: true, limit: 10, remaining: 9 });
    expect(limited.body.data.overrideId).toBeUndefined();
  });

  test('a pattern is deleted by naming the pattern; the exact override next to it stays', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'user_*', 5);
    const exact = await setOverride(h, ns.name, 'user_1', 9);
    expect((await del(ns.id, 'user_*')).status).toBe(200);
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'user_2' })).status).toBe(404);
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'user_1' })).body.data.overrideId).toBe(exact);
  });

  test('ratelimit.<namespaceId>.delete_override is enough', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 1);
    const key = await h.rootKey([`ratelimit.${ns.id}.delete_override`]);
    expect((await del(ns.name, 'u', key)).status).toBe(200);
  });
});
