import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateKey / keys.updateCredits during verifications', () => {
  const h = useHarness();

  test('changing only the refill never overwrites credits spent meanwhile', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 1000 } });
    const verifications = Array.from({ length: 150 }, () => h.verify(key));
    const updates = Array.from({ length: 30 }, (_, i) => h.call('keys.updateKey', {
      keyId, credits: { refill: { interval: 'daily', amount: 1000 + i } },
    }));
    const [verified, updated] = await Promise.all([Promise.all(verifications), Promise.all(updates)]);
    expect(updated.every((r) => r.status === 200)).toBe(true);
    expect(verified.filter((r) => r.body.data.valid).length).toBe(150);
    const got = await h.call('keys.getKey', { keyId });
    expect(got.body.data.credits.remaining).toBe(850);
    expect(got.body.data.credits.refill.interval).toBe('daily');
  });

  test('updateCredits set keeps the refill settings', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5, refill: { interval: 'monthly', amount: 50, refillDay: 1 } } });
    const res = await h.call('keys.updateCredits', { keyId, operation: 'set', value: 7 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ remaining: 7, refill: { interval: 'monthly', amount: 50, refillDay: 1 } });
  });
});
