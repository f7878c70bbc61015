import { beforeEach, describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';
import { existingNamespace, fresh, MINUTE, setOverride, windowEnd } from '../support.js';

describe('ratelimit.limit → 200 with overrides', () => {
  const h = useHarness();
  beforeEach(async () => { await waitForWindowRoom(MINUTE); });

  const limit = (namespace: string, identifier: string, extra: Record<string, unknown> = {}) =>
    h.call('ratelimit.limit', { namespace, identifier, limit: 100, duration: MINUTE, ...extra });

  test('an exact override replaces the limit and is named by overrideId', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'user_1', 2);
    expect(overrideId).toMatch(/^rlor_/);
    const first = await limit(ns.name, 'user_1');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ success: true, limit: 2, remaining: 1, reset: windowEnd(Date.now()), overrideId });
    expect((await limit(ns.name, 'user_1')).body.data).toMatchObject({ success: true, remaining: 0, overrideId });
    expect((await limit(ns.name, 'user_1')).body.data).toMatchObject({ success: false, limit: 2, remaining: 0, overrideId });
    // Other identifiers keep the requested limit and carry no overrideId.
    const other = await limit(ns.name, 'user_2');
    expect(other.body.data).toMatchObject({ success: true, limit: 100, remaining: 99 });
    expect(other.body.data.overrideId).toBeUndefined();
  });

  test('an exact override beats a matching pattern', async () => {
    const ns = await existingNamespace(h);
    const pattern = await setOverride(h, ns.name, 'user_*', 5);
    const exact = await setOverride(h, ns.name, 'user_vip', 50);
    expect((await limit(ns.name, 'user_vip')).body.data).toMatchObject({ limit: 50, overrideId: exact });
    expect((await limit(ns.name, 'user_other')).body.data).toMatchObject({ limit: 5, overrideId: pattern });
  });

  test('among matching patterns the one with most literal characters wins, whatever the order they were set', async () => {
    const ns = await existingNamespace(h);
    const specific = await setOverride(h, ns.name, 'user_*_eu', 7);
    const any = await setOverride(h, ns.name, '*', 1);
    const prefix = await setOverride(h, ns.name, 'user_*', 3);
    expect((await limit(ns.name, 'user_42_eu')).body.data).toMatchObject({ limit: 7, overrideId: specific });
    expect((await limit(ns.name, 'user_42_us')).body.data).toMatchObject({ limit: 3, overrideId: prefix });
    expect((await limit(ns.name, 'admin')).body.data).toMatchObject({ limit: 1, overrideId: any });
  });

  test('equally specific patterns: the smaller override id wins', async () => {
    const ns = await existingNamespace(h);
    const a = await setOverride(h, ns.name, 'a*', 11);
    const b = await setOverride(h, ns.name, '*z', 22);
    const winner = a < b ? { id: a, limit: 11 } : { id: b, limit: 22 };
    for (let i = 0; i < 3; i++) {
      expect((await limit(ns.name, 'a-to-z')).body.data).toMatchObject({ limit: winner.limit, overrideId: winner.id });
    }
  });

  test('a pattern is literal apart from `*` and anchored at both ends', async () => {
    const ns = await existingNamespace(h);
    const dotted = await setOverride(h, ns.name, 'ip.10.*', 4);
    expect((await limit(ns.name, 'ip.10.0.0.1')).body.data).toMatchObject({ limit: 4, overrideId: dotted });
    expect((await limit(ns.name, 'ipx10x0')).body.data.overrideId).toBeUndefined();
    expect((await limit(ns.name, 'my-ip.10.1')).body.data.overrideId).toBeUndefined();
  });

  test('an override of limit 0 denies every call, a cost-0 check included, with remaining 0', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'blocked_*', 0);
    for (const cost of [1, 0, 5]) {
      const res = await limit(ns.name, 'blocked_bot', { cost });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ success: false, limit: 0, remaining: 0, overrideId });
    }
    expect((await limit(ns.name, 'friendly')).body.data).toMatchObject({ success: true, limit: 100 });
  });

  test('the override duration replaces the requested one: reset and counter follow it', async () => {
    await waitForWindowRoom(3_600_000, 10_000);
    const ns = await existingNamespace(h);
    const identifier = fresh('hourly');
    const overrideId = await setOverride(h, ns.name, identifier, 2, 3_600_000);
    const res = await limit(ns.name, identifier, { duration: 1_000 });
    expect(res.body.data).toEqual({ success: true, limit: 2, remaining: 1, reset: windowEnd(Date.now(), 3_600_000), overrideId });
    // Same counter whatever duration the caller sends: the override's.
    expect((await limit(ns.name, identifier, { duration: 5_000 })).body.data).toMatchObject({ success: true, remaining: 0 });
    expect((await limit(ns.name, identifier, { duration: 1_000 })).body.data).toMatchObject({ success: false, remaining: 0 });
  });

  test('a deleted override no longer applies; setting it again revives it with its id', async () => {
    const ns = await existingNamespace(h);
    const identifier = fresh('revived');
    const overrideId = await setOverride(h, ns.name, identifier, 1);
    expect((await limit(ns.name, identifier)).body.data).toMatchObject({ limit: 1, overrideId });
    const del = await h.call('ratelimit.deleteOverride', { namespace: ns.name, identifier });
    expect(del.status).toBe(200);
    const after = await limit(ns.name, identifier);
    expect(after.body.data).toMatchObject({ success: true, limit: 100 });
    expect(after.body.data.overrideId).toBeUndefined();
    expect(await setOverride(h, ns.name, identifier, 1)).toBe(overrideId);
    expect((await limit(ns.name, identifier)).body.data).toMatchObject({ success: false, limit: 1, overrideId });
  });

  test('changing an override takes effect on the next call; an override applies only in its namespace', async () => {
    const ns = await existingNamespace(h);
    const other = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'user_9', 1);
    expect((await limit(ns.name, 'user_9')).body.data).toMatchObject({ success: true, limit: 1, remaining: 0 });
    expect(await setOverride(h, ns.name, 'user_9', 3)).toBe(overrideId);
    expect((await limit(ns.name, 'user_9')).body.data).toMatchObject({ success: true, limit: 3, remaining: 1, overrideId });
    const elsewhere = await limit(other.id, 'user_9');
    expect(elsewhere.body.data).toMatchObject({ success: true, limit: 100 });
    expect(elsewhere.body.data.overrideId).toBeUndefined();
  });
});
