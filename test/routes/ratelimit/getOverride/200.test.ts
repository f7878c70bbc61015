import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, MINUTE, setOverride } from '../support.js';

describe('ratelimit.getOverride → 200', () => {
  const h = useHarness();
  const get = (namespace: string, identifier: string, rootKey?: string) =>
    h.call('ratelimit.getOverride', { namespace, identifier }, rootKey === undefined ? {} : { rootKey });

  test('returns the override by exact identifier, by namespace name or id', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'user_1', 0, 2 * MINUTE);
    for (const namespace of [ns.name, ns.id]) {
      const res = await get(namespace, 'user_1');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ overrideId, identifier: 'user_1', limit: 0, duration: 2 * MINUTE });
    }
  });

  test('uses the matcher of ratelimit.limit: a pattern answers for identifiers it matches, the most specific wins', async () => {
    const ns = await existingNamespace(h);
    const prefix = await setOverride(h, ns.name, 'user_*', 5);
    const specific = await setOverride(h, ns.name, 'user_*_eu', 7);
    const exact = await setOverride(h, ns.name, 'user_1_eu', 9);
    expect((await get(ns.name, 'user_42')).body.data).toEqual({ overrideId: prefix, identifier: 'user_*', limit: 5, duration: MINUTE });
    expect((await get(ns.name, 'user_42_eu')).body.data.overrideId).toBe(specific);
    expect((await get(ns.name, 'user_1_eu')).body.data.overrideId).toBe(exact);
    // The pattern itself is found exactly too.
    expect((await get(ns.name, 'user_*')).body.data.overrideId).toBe(prefix);
  });

  test('ratelimit.<namespaceId>.read_override is enough', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'u', 1);
    const key = await h.rootKey([`ratelimit.${ns.id}.read_override`]);
    const res = await get(ns.name, 'u', key);
    expect(res.status).toBe(200);
    expect(res.body.data.overrideId).toBe(overrideId);
  });
});
