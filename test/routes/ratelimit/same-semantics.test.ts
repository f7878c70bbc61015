/**
 * One limiter, one set of semantics: the same limit, duration and sequence of costs give the same
 * decisions, remaining and reset whether checked through ratelimit.limit or through an identity's
 * limit in keys.verifyKey. Overrides are the one deliberate difference: they apply to ratelimit.*
 * only, never to verification limits (as in Unkey).
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../../support/harness.js';
import { waitForWindowRoom } from '../../support/time.js';
import { fresh, MINUTE, setOverride } from './support.js';

describe('ratelimit.limit and keys.verifyKey share one limiter', () => {
  const h = useHarness();

  async function keyWithIdentityLimit(name: string, limit: number, duration: number): Promise<string> {
    const apiId = await h.createApi('same-semantics');
    const externalId = fresh('acme');
    await h.createIdentity({ externalId, ratelimits: [{ name, limit, duration, autoApply: false }] });
    return (await h.createKey({ apiId, externalId })).key;
  }

  test('the same costs (0 and over-limit included) give the same outcomes through both paths', async () => {
    await waitForWindowRoom(MINUTE, 10_000);
    const limit = 5;
    const name = fresh('requests');
    const key = await keyWithIdentityLimit(name, limit, MINUTE);
    const namespace = fresh('same-ns');
    const identifier = fresh('acme-id');
    const costs = [1, 0, 2, 3, 0, 2, 1, 0, 6, 0];

    const viaLimit: unknown[] = [];
    const viaVerify: unknown[] = [];
    for (const cost of costs) {
      const l = await h.call('ratelimit.limit', { namespace, identifier, limit, duration: MINUTE, cost });
      expect(l.status).toBe(200);
      viaLimit.push({ cost, allowed: l.body.data.success, remaining: l.body.data.remaining, reset: l.body.data.reset });

      const v = await h.verify(key, { ratelimits: [{ name, cost }] });
      expect(v.status).toBe(200);
      const r = v.body.data.ratelimits[0];
      expect(r).toMatchObject({ name, limit, duration: MINUTE });
      expect(v.body.data.code).toBe(r.exceeded ? 'RATE_LIMITED' : 'VALID');
      viaVerify.push({ cost, allowed: !r.exceeded, remaining: r.remaining, reset: r.reset });
    }
    expect(viaVerify).toEqual(viaLimit);
    // The sequence really exercises every rule: admitted, peeks, denials, and a peek at the limit.
    expect(viaLimit.map((o: any) => o.allowed)).toEqual([true, true, true, false, true, true, false, true, false, true]);
    expect(viaLimit.map((o: any) => o.remaining)).toEqual([4, 4, 2, 0, 2, 0, 0, 0, 0, 0]);
  });

  test('overrides never reach verification limits, even in a namespace named like the limit', async () => {
    await waitForWindowRoom(MINUTE, 10_000);
    const name = fresh('guarded');
    const key = await keyWithIdentityLimit(name, 2, MINUTE);
    // The namespace exists under the limit's name and blocks everyone through ratelimit.limit.
    const blocked = await h.call('ratelimit.limit', { namespace: name, identifier: 'anyone', limit: 2, duration: MINUTE, cost: 0 });
    expect(blocked.status).toBe(200);
    await setOverride(h, name, '*', 0);
    expect((await h.call('ratelimit.limit', { namespace: name, identifier: 'anyone', limit: 2, duration: MINUTE })).body.data.success).toBe(false);

    const v = await h.verify(key, { ratelimits: [{ name }] });
    expect(v.body.data).toMatchObject({ valid: true, code: 'VALID' });
    expect(v.body.data.ratelimits[0]).toMatchObject({ limit: 2, remaining: 1, exceeded: false });
  });
});
