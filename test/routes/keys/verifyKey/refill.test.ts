/**
 * Credit refills as a user meets them: a key whose refill fell due verifies again, with the
 * balance reset to the refill amount (not added to), and getKey shows the refilled balance.
 * The stored "last refill" is moved into the past through storage, since no test can wait for
 * UTC midnight; everything else goes over HTTP.
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

const DAY_MS = 86_400_000;

describe('keys.verifyKey → credit refills', () => {
  const h = useHarness();

  async function keyWithRefill(remaining: number, refill: Record<string, unknown>) {
    const created = await h.createKey({ apiId: await h.createApi(), credits: { remaining, refill } });
    return created;
  }

  async function lastRefillWas(keyId: string, atMs: number): Promise<void> {
    const { storage } = h.keygate.services;
    const credits = await storage.keys.getCredits(keyId);
    await storage.keys.setCredits(keyId, { ...credits!, lastRefillAt: atMs });
  }

  test('an exhausted key with a daily refill is refilled once the day has turned', async () => {
    const { keyId, key } = await keyWithRefill(1, { interval: 'daily', amount: 3 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'USAGE_EXCEEDED', credits: 0 });

    await lastRefillWas(keyId, Date.now() - 2 * DAY_MS);
    expect((await h.call('keys.getKey', { keyId })).body.data.credits.remaining).toBe(3);
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 2 });
    // Refilled once: the next verifications spend from 2 down, with no second refill.
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 1 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'USAGE_EXCEEDED', credits: 0 });
  });

  test('a monthly refill resets to the amount and does not add to a larger balance', async () => {
    const { keyId, key } = await keyWithRefill(500, { interval: 'monthly', amount: 100, refillDay: 1 });
    await lastRefillWas(keyId, Date.now() - 40 * DAY_MS);
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 499 });

    const low = await keyWithRefill(2, { interval: 'monthly', amount: 100, refillDay: 1 });
    await lastRefillWas(low.keyId, Date.now() - 40 * DAY_MS);
    expect((await h.verify(low.key)).body.data).toMatchObject({ code: 'VALID', credits: 99 });
  });

  test('a refill that fell due is applied before updateCredits changes the balance', async () => {
    const { keyId } = await keyWithRefill(0, { interval: 'daily', amount: 10 });
    await lastRefillWas(keyId, Date.now() - 2 * DAY_MS);
    const res = await h.call('keys.updateCredits', { keyId, operation: 'increment', value: 5 });
    expect(res.status).toBe(200);
    expect(res.body.data.remaining).toBe(15);
  });

  test('a new key is not refilled before its first refill moment', async () => {
    const { key } = await keyWithRefill(1, { interval: 'daily', amount: 50 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'VALID', credits: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'USAGE_EXCEEDED', credits: 0 });
  });
});
