import { beforeEach, describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

const MINUTE = 60_000;

/** Waits for the next aligned window when fewer than 5 s remain in the current 60 s one. */
async function awayFromWindowEdge(durationMs = MINUTE, marginMs = 5_000): Promise<void> {
  const left = durationMs - (Date.now() % durationMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

const windowEnd = (nowMs: number, durationMs = MINUTE): number => (Math.floor(nowMs / durationMs) + 1) * durationMs;

describe('ratelimit.limit → 200', () => {
  const h = useHarness();
  let seq = 0;
  /** A fresh identifier per test, so no counter is shared by accident. */
  const fresh = (label: string): string => `${label}-${Date.now()}-${seq++}`;

  beforeEach(async () => { await awayFromWindowEdge(); });

  const limit = (body: Record<string, unknown>, rootKey?: string) =>
    h.call('ratelimit.limit', { namespace: 'api.requests', duration: MINUTE, ...body }, rootKey === undefined ? {} : { rootKey });

  test('the first call succeeds with remaining = limit - cost and reset at the end of the aligned window', async () => {
    const before = Date.now();
    const res = await limit({ identifier: fresh('first'), limit: 10, cost: 3 });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(windowEnd(before)).toBe(windowEnd(after));
    expect(res.body.data).toEqual({ success: true, limit: 10, remaining: 7, reset: windowEnd(before) });
  });

  test('cost defaults to 1', async () => {
    const res = await limit({ identifier: fresh('default-cost'), limit: 5 });
    expect(res.body.data).toMatchObject({ success: true, limit: 5, remaining: 4 });
  });

  test('repeated calls count down to 0, then the next one is denied with remaining 0', async () => {
    const identifier = fresh('countdown');
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await limit({ identifier, limit: 5 });
      expect(res.body.data.success).toBe(true);
      remaining.push(res.body.data.remaining);
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const denied = await limit({ identifier, limit: 5 });
    expect(denied.status).toBe(200);
    expect(denied.body.data).toMatchObject({ success: false, limit: 5, remaining: 0, reset: windowEnd(Date.now()) });
    expect(denied.body.data.overrideId).toBeUndefined();
  });

  test('cost 0 checks without consuming, and still succeeds at exactly the limit', async () => {
    const identifier = fresh('peek');
    const peek = await limit({ identifier, limit: 3, cost: 0 });
    expect(peek.body.data).toMatchObject({ success: true, remaining: 3 });
    const peekAgain = await limit({ identifier, limit: 3, cost: 0 });
    expect(peekAgain.body.data).toMatchObject({ success: true, remaining: 3 });

    const spend = await limit({ identifier, limit: 3, cost: 3 });
    expect(spend.body.data).toMatchObject({ success: true, remaining: 0 });
    const atLimit = await limit({ identifier, limit: 3, cost: 0 });
    expect(atLimit.body.data).toMatchObject({ success: true, remaining: 0 });
    const over = await limit({ identifier, limit: 3, cost: 1 });
    expect(over.body.data).toMatchObject({ success: false, remaining: 0 });
  });

  test('a cost above the limit is denied with remaining 0 and consumes nothing', async () => {
    const identifier = fresh('too-costly');
    const denied = await limit({ identifier, limit: 5, cost: 6 });
    expect(denied.status).toBe(200);
    expect(denied.body.data).toMatchObject({ success: false, limit: 5, remaining: 0 });

    const next = await limit({ identifier, limit: 5, cost: 1 });
    expect(next.body.data).toMatchObject({ success: true, remaining: 4 });
  });

  test('a denied call consumes nothing: a smaller cost still fits afterwards', async () => {
    const identifier = fresh('partial');
    expect((await limit({ identifier, limit: 5, cost: 3 })).body.data).toMatchObject({ success: true, remaining: 2 });
    expect((await limit({ identifier, limit: 5, cost: 3 })).body.data).toMatchObject({ success: false, remaining: 0 });
    expect((await limit({ identifier, limit: 5, cost: 2 })).body.data).toMatchObject({ success: true, remaining: 0 });
  });

  test('a namespace referenced by name and then by its id shares counters', async () => {
    const namespace = fresh('by-name-or-id');
    const identifier = 'user_1';
    const byName = await h.call('ratelimit.limit', { namespace, identifier, limit: 3, duration: MINUTE });
    expect(byName.body.data).toMatchObject({ success: true, remaining: 2 });

    const record = await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace);
    expect(record).not.toBeNull();
    expect(record!.id).toMatch(/^rlns_/);
    expect(record!.name).toBe(namespace);

    const byId = await h.call('ratelimit.limit', { namespace: record!.id, identifier, limit: 3, duration: MINUTE });
    expect(byId.body.data).toMatchObject({ success: true, remaining: 1 });
    const byNameAgain = await h.call('ratelimit.limit', { namespace, identifier, limit: 3, duration: MINUTE });
    expect(byNameAgain.body.data).toMatchObject({ success: true, remaining: 0 });
    const byIdDenied = await h.call('ratelimit.limit', { namespace: record!.id, identifier, limit: 3, duration: MINUTE });
    expect(byIdDenied.body.data).toMatchObject({ success: false, remaining: 0 });
  });

  test('using a namespace by id does not create a second namespace', async () => {
    const namespace = fresh('no-dup');
    await h.call('ratelimit.limit', { namespace, identifier: 'u', limit: 3, duration: MINUTE });
    const record = (await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace))!;
    await h.call('ratelimit.limit', { namespace: record.id, identifier: 'u', limit: 3, duration: MINUTE });
    expect((await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace))!.id).toBe(record.id);
  });

  test('namespace names are case-sensitive: `Case-NS` and `case-ns` are two namespaces with their own counters', async () => {
    const upper = fresh('Case-NS');
    const lower = upper.toLowerCase();
    const identifier = 'same-user';
    expect((await h.call('ratelimit.limit', { namespace: upper, identifier, limit: 1, duration: MINUTE })).body.data).toMatchObject({ success: true, remaining: 0 });
    expect((await h.call('ratelimit.limit', { namespace: lower, identifier, limit: 1, duration: MINUTE })).body.data).toMatchObject({ success: true, remaining: 0 });
    const a = (await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, upper))!;
    const b = (await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, lower))!;
    expect(a.name).toBe(upper);
    expect(b.name).toBe(lower);
    expect(a.id).not.toBe(b.id);
  });

  test('different identifiers have separate counters', async () => {
    const a = fresh('alice');
    const b = fresh('bob');
    expect((await limit({ identifier: a, limit: 2, cost: 2 })).body.data).toMatchObject({ success: true, remaining: 0 });
    expect((await limit({ identifier: a, limit: 2 })).body.data.success).toBe(false);
    expect((await limit({ identifier: b, limit: 2 })).body.data).toMatchObject({ success: true, remaining: 1 });
  });

  test('one identifier in different namespaces has separate counters', async () => {
    const identifier = fresh('shared-id');
    const one = await h.call('ratelimit.limit', { namespace: fresh('ns-one'), identifier, limit: 1, duration: MINUTE });
    const two = await h.call('ratelimit.limit', { namespace: fresh('ns-two'), identifier, limit: 1, duration: MINUTE });
    expect(one.body.data).toMatchObject({ success: true, remaining: 0 });
    expect(two.body.data).toMatchObject({ success: true, remaining: 0 });
  });

  test('the same identifier with a different duration is a different limit', async () => {
    const identifier = fresh('durations');
    expect((await limit({ identifier, limit: 1 })).body.data.success).toBe(true);
    expect((await limit({ identifier, limit: 1 })).body.data.success).toBe(false);
    const hourly = await limit({ identifier, limit: 1, duration: 3_600_000 });
    expect(hourly.body.data).toMatchObject({ success: true, remaining: 0, reset: windowEnd(Date.now(), 3_600_000) });
  });

  test('100 concurrent calls against a limit of 10 admit exactly 10', async () => {
    const identifier = fresh('burst');
    const results = await Promise.all(Array.from({ length: 100 }, () => limit({ identifier, limit: 10 })));
    for (const r of results) expect(r.status).toBe(200);
    const admitted = results.filter((r) => r.body.data.success === true);
    expect(admitted).toHaveLength(10);
    expect(admitted.map((r) => r.body.data.remaining).sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of results.filter((r) => r.body.data.success === false)) expect(r.body.data.remaining).toBe(0);
  });

  test('the first call on a new namespace creates it when the key may create namespaces', async () => {
    const namespace = fresh('created');
    expect(await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace)).toBeNull();
    const key = await h.rootKey(['ratelimit.*.create_namespace', 'ratelimit.*.limit']);
    const res = await h.call('ratelimit.limit', { namespace, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expect(res.body.data).toMatchObject({ success: true, remaining: 9 });
    expect(await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace)).not.toBeNull();
  });

  test('ratelimit.<namespaceId>.limit is enough on an existing namespace', async () => {
    const namespace = fresh('scoped');
    await h.call('ratelimit.limit', { namespace, identifier: 'warmup', limit: 10, duration: MINUTE });
    const record = (await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace))!;
    const key = await h.rootKey([`ratelimit.${record.id}.limit`]);
    const res = await h.call('ratelimit.limit', { namespace, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ success: true, remaining: 9 });
  });
});
