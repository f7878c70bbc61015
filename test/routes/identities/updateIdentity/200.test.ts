import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

/** Day-long windows, so a window boundary (UTC midnight) almost never falls inside one test. */
const DAY = 86_400_000;
const limit = (name: string, n: number, autoApply = true, duration = 60000) => ({ name, limit: n, duration, autoApply });

describe('identities.updateIdentity → 200', () => {
  const h = useHarness();
  const stored = (id: string) => h.keygate.services.storage.identities.get(id);

  test('meta replaces the whole object; the answer is the Identity with the request meta', async () => {
    const identityId = await h.createIdentity({ externalId: 'meta-swap', meta: { plan: 'free', seats: 1 } });
    const res = await h.call('identities.updateIdentity', { identity: identityId, meta: { plan: 'pro' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
    expect(res.body.data).toEqual({ id: identityId, externalId: 'meta-swap', meta: { plan: 'pro' } });
    expect((await stored(identityId))?.meta).toEqual({ plan: 'pro' });
    expect((await h.call('identities.getIdentity', { identity: identityId })).body.data.meta).toEqual({ plan: 'pro' });
  });

  test('omitted meta keeps the stored meta, and the answer has no meta (it echoes the request)', async () => {
    const identityId = await h.createIdentity({ externalId: 'meta-keep', meta: { plan: 'pro' } });
    const res = await h.call('identities.updateIdentity', { identity: 'meta-keep', ratelimits: [limit('requests', 5)] });
    expect(res.status).toBe(200);
    expect(res.body.data.meta).toBeUndefined();
    expect(res.body.data).toEqual({ id: identityId, externalId: 'meta-keep', ratelimits: [{ id: expect.stringMatching(/^rl_/), ...limit('requests', 5) }] });
    expect((await stored(identityId))?.meta).toEqual({ plan: 'pro' });
  });

  test('meta {} clears the stored meta', async () => {
    const identityId = await h.createIdentity({ externalId: 'meta-clear', meta: { plan: 'pro' } });
    const res = await h.call('identities.updateIdentity', { identity: identityId, meta: {} });
    expect(res.body.data).toEqual({ id: identityId, externalId: 'meta-clear' });
    expect((await stored(identityId))?.meta).toBeUndefined();
  });

  test('ratelimits replace the set: same names keep their ids, new names get new ids, absent names go', async () => {
    const identityId = await h.createIdentity({
      externalId: 'limits-swap',
      ratelimits: [limit('requests', 10), limit('tokens', 1000, false), limit('legacy', 1)],
    });
    const before = (await stored(identityId))!.ratelimits;
    const idOf = (name: string) => before.find((r) => r.name === name)!.id;

    const res = await h.call('identities.updateIdentity', {
      identity: identityId,
      ratelimits: [limit('requests', 20, false, 1000), limit('tokens', 5000, true), limit('burst', 3)],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.ratelimits).toEqual([
      { id: idOf('requests'), ...limit('requests', 20, false, 1000) },
      { id: idOf('tokens'), ...limit('tokens', 5000, true) },
      { id: expect.stringMatching(/^rl_/), ...limit('burst', 3) },
    ]);
    const burstId = res.body.data.ratelimits[2].id;
    expect(before.map((r) => r.id)).not.toContain(burstId);
    expect((await stored(identityId))!.ratelimits).toEqual(res.body.data.ratelimits);
    expect((await h.call('identities.getIdentity', { identity: identityId })).body.data.ratelimits).toEqual(res.body.data.ratelimits);
  });

  test('ratelimits [] removes them all; omitted ratelimits keeps them (and the answer shows them)', async () => {
    const identityId = await h.createIdentity({ externalId: 'limits-clear', ratelimits: [limit('requests', 10)] });
    const kept = await h.call('identities.updateIdentity', { identity: identityId, meta: { a: 1 } });
    expect(kept.body.data).toEqual({ id: identityId, externalId: 'limits-clear', meta: { a: 1 }, ratelimits: [{ id: expect.stringMatching(/^rl_/), ...limit('requests', 10) }] });
    const cleared = await h.call('identities.updateIdentity', { identity: identityId, ratelimits: [] });
    expect(cleared.body.data).toEqual({ id: identityId, externalId: 'limits-clear' });
    expect((await stored(identityId))!.ratelimits).toEqual([]);
    expect((await stored(identityId))!.meta).toEqual({ a: 1 });
  });

  test('an update with only the identity changes nothing but updatedAt', async () => {
    const identityId = await h.createIdentity({ externalId: 'noop', meta: { a: 1 }, ratelimits: [limit('requests', 2)] });
    const before = (await stored(identityId))!;
    const res = await h.call('identities.updateIdentity', { identity: 'noop' });
    expect(res.body.data).toEqual({ id: identityId, externalId: 'noop', ratelimits: [{ id: before.ratelimits[0]!.id, ...limit('requests', 2) }] });
    const after = (await stored(identityId))!;
    expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    expect(after.updatedAt).toBeGreaterThanOrEqual(before.createdAt);
  });

  test('verifyKey on a linked key applies the new limits and shows the new meta', async () => {
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'limited-org', meta: { tier: 'free' }, ratelimits: [limit('org-requests', 1, true, DAY)] });
    const { key } = await h.createKey({ apiId, externalId: 'limited-org' });
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    expect((await h.verify(key)).body.data.code).toBe('RATE_LIMITED');

    const res = await h.call('identities.updateIdentity', { identity: 'limited-org', meta: { tier: 'gold' }, ratelimits: [limit('org-requests', 3, true, DAY)] });
    expect(res.status).toBe(200);

    const after = await h.verify(key);
    expect(after.body.data.code).toBe('VALID');
    expect(after.body.data.identity.meta).toEqual({ tier: 'gold' });
    expect(after.body.data.ratelimits).toEqual([expect.objectContaining({ name: 'org-requests', limit: 3, remaining: 1, exceeded: false })]);
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    expect((await h.verify(key)).body.data.code).toBe('RATE_LIMITED');
  });

  test('every key of the identity applies the new limits; a key with a limit of its own keeps it', async () => {
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'shared-org', ratelimits: [limit('org-requests', 10, true, DAY)] });
    const plain = [(await h.createKey({ apiId, externalId: 'shared-org' })).key, (await h.createKey({ apiId, externalId: 'shared-org' })).key];
    const own = (await h.createKey({ apiId, externalId: 'shared-org', ratelimits: [limit('org-requests', 1, true, DAY)] })).key;
    // One verification each, so every key is remembered with the identity's limits as they were.
    for (const key of plain) expect((await h.verify(key)).body.data.ratelimits).toEqual([expect.objectContaining({ name: 'org-requests', limit: 10 })]);
    expect((await h.verify(own)).body.data.ratelimits).toEqual([expect.objectContaining({ name: 'org-requests', limit: 1 })]);

    expect((await h.call('identities.updateIdentity', { identity: 'shared-org', ratelimits: [limit('org-requests', 4, true, DAY)] })).status).toBe(200);
    // The identity's one counter, shared by both keys, now stops at 4 (2 were taken before the update).
    const answers = [];
    for (const key of [...plain, ...plain]) answers.push((await h.verify(key)).body.data);
    expect(answers.map((a) => a.ratelimits[0].limit)).toEqual([4, 4, 4, 4]);
    expect(answers.map((a) => a.code)).toEqual(['VALID', 'VALID', 'RATE_LIMITED', 'RATE_LIMITED']);
    const ownAfter = (await h.verify(own)).body.data;
    expect(ownAfter.ratelimits).toEqual([expect.objectContaining({ name: 'org-requests', limit: 1, exceeded: true })]);
    expect(ownAfter.code).toBe('RATE_LIMITED');
  });

  test('removing the identity limits lifts them from verification', async () => {
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'lifted-org', ratelimits: [limit('org-requests', 1, true, DAY)] });
    const { key } = await h.createKey({ apiId, externalId: 'lifted-org' });
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    expect((await h.verify(key)).body.data.code).toBe('RATE_LIMITED');
    expect((await h.call('identities.updateIdentity', { identity: 'lifted-org', ratelimits: [] })).status).toBe(200);
    const res = await h.verify(key);
    expect(res.body.data.code).toBe('VALID');
    expect(res.body.data.ratelimits).toBeUndefined();
  });

  test('identity.*.update_identity alone is enough', async () => {
    const identityId = await h.createIdentity({ externalId: 'by-updater' });
    const key = await h.rootKey(['identity.*.update_identity']);
    const res = await h.call('identities.updateIdentity', { identity: identityId, meta: { x: 1 } }, { rootKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: identityId, externalId: 'by-updater', meta: { x: 1 } });
  });

  test('a limit without autoApply is accepted and stored with autoApply false', async () => {
    const identityId = await h.createIdentity({ externalId: 'update-no-auto-apply' });
    const res = await h.call('identities.updateIdentity', { identity: identityId, ratelimits: [{ name: 'requests', limit: 5, duration: 60000 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.ratelimits).toEqual([expect.objectContaining({ name: 'requests', autoApply: false })]);
    const got = await h.call('identities.getIdentity', { identity: identityId });
    expect(got.body.data.ratelimits).toEqual([expect.objectContaining({ name: 'requests', limit: 5, duration: 60000, autoApply: false })]);
  });
});
