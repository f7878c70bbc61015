import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';

describe('keys.verifyKey: identity limits are shared by every key of the identity', () => {
  const h = useHarness();

  test('limit 5 per 60 s over three keys: exactly 5 VALID, then RATE_LIMITED on every key', async () => {
    await waitForWindowRoom(60_000, 15_000);
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'org_shared', ratelimits: [{ name: 'requests', limit: 5, duration: 60_000, autoApply: true }] });
    const keys = await Promise.all([0, 1, 2].map(() => h.createKey({ apiId, externalId: 'org_shared' })));
    const codes: string[] = [];
    for (let i = 0; i < 9; i++) codes.push((await h.verify(keys[i % 3]!.key)).body.data.code);
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('VALID'));
    expect(codes.slice(5)).toEqual(Array(4).fill('RATE_LIMITED'));
    for (const { key } of keys) {
      const data = (await h.verify(key)).body.data;
      expect(data.code).toBe('RATE_LIMITED');
      expect(data.identity).toMatchObject({ externalId: 'org_shared' });
      expect(data.ratelimits[0]).toMatchObject({ name: 'requests', exceeded: true, remaining: 0 });
    }
  });

  test('200 concurrent verifications against a limit of 50 admit exactly 50', async () => {
    await waitForWindowRoom(60_000, 15_000);
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'org_burst', ratelimits: [{ name: 'requests', limit: 50, duration: 60_000, autoApply: true }] });
    const keys = await Promise.all(Array.from({ length: 4 }, () => h.createKey({ apiId, externalId: 'org_burst' })));
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => h.verify(keys[i % 4]!.key)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.data.code === 'VALID').length).toBe(50);
    expect(results.filter((r) => r.body.data.code === 'RATE_LIMITED').length).toBe(150);
  });

  test('createKey with an unknown externalId creates the identity, and later keys share it', async () => {
    const apiId = await h.createApi();
    const a = await h.createKey({ apiId, externalId: 'new_user_1' });
    const b = await h.createKey({ apiId, externalId: 'new_user_1' });
    const ia = (await h.verify(a.key)).body.data.identity;
    const ib = (await h.verify(b.key)).body.data.identity;
    expect(ia.externalId).toBe('new_user_1');
    expect(ia.id).toMatch(/^id_/);
    expect(ib.id).toBe(ia.id);
    const dup = await h.call('identities.createIdentity', { externalId: 'new_user_1' });
    expect(dup.status).toBe(409);
  });

  test('named limits with costs: an hourly and a daily limit, checked as the caller chooses', async () => {
    await waitForWindowRoom(3_600_000, 15_000);
    const apiId = await h.createApi();
    await h.createIdentity({
      externalId: 'org_tokens',
      ratelimits: [
        { name: 'tokens-hour', limit: 10, duration: 3_600_000, autoApply: false },
        { name: 'tokens-day', limit: 12, duration: 86_400_000, autoApply: false },
      ],
    });
    const { key } = await h.createKey({ apiId, externalId: 'org_tokens' });
    const both = (cost: number) => ({ ratelimits: [{ name: 'tokens-hour', cost }, { name: 'tokens-day', cost }] });
    expect((await h.verify(key, both(6))).body.data.code).toBe('VALID');
    // 6 + 6 > 10 per hour: denied, and neither limit is consumed.
    const denied = (await h.verify(key, both(6))).body.data;
    expect(denied.code).toBe('RATE_LIMITED');
    expect(denied.ratelimits.find((r: any) => r.name === 'tokens-hour')).toMatchObject({ exceeded: true, remaining: 0 });
    expect(denied.ratelimits.find((r: any) => r.name === 'tokens-day')).toMatchObject({ exceeded: false, remaining: 6 });
    expect((await h.verify(key, both(4))).body.data.code).toBe('VALID');
    // Only the daily limit named: 2 left of 12.
    const day = (await h.verify(key, { ratelimits: [{ name: 'tokens-day', cost: 2 }] })).body.data;
    expect(day).toMatchObject({ code: 'VALID' });
    expect(day.ratelimits).toEqual([expect.objectContaining({ name: 'tokens-day', remaining: 0 })]);
  });

  test('a key-level limit with the same name shadows the identity limit for that key only', async () => {
    await waitForWindowRoom(60_000);
    const apiId = await h.createApi();
    await h.createIdentity({ externalId: 'org_shadow', ratelimits: [{ name: 'requests', limit: 1, duration: 60_000, autoApply: true }] });
    const own = await h.createKey({ apiId, externalId: 'org_shadow', ratelimits: [{ name: 'requests', limit: 3, duration: 60_000, autoApply: true }] });
    const shared = await h.createKey({ apiId, externalId: 'org_shadow' });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await h.verify(own.key)).body.data.code);
    expect(codes).toEqual(['VALID', 'VALID', 'VALID', 'RATE_LIMITED']);
    // The identity's own pool of 1 is untouched by the shadowing key.
    expect((await h.verify(shared.key)).body.data.code).toBe('VALID');
    expect((await h.verify(shared.key)).body.data.code).toBe('RATE_LIMITED');
    const data = (await h.verify(own.key)).body.data;
    expect(data.identity.ratelimits).toBeUndefined();
  });
});
