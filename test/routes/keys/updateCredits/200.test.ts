import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateCredits → 200', () => {
  const h = useHarness();
  const updateCredits = async (body: Record<string, unknown>) => {
    const res = await h.call('keys.updateCredits', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const creditsOf = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data.credits;

  test('increment adds credits; the next verification spends from the new balance', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 0 } });
    expect((await h.verify(key)).body.data.code).toBe('USAGE_EXCEEDED');
    expect(await updateCredits({ keyId, operation: 'increment', value: 5 })).toEqual({ remaining: 5 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, code: 'VALID', credits: 4 });
  });

  test('decrement takes credits and stops at 0', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 10 } });
    expect(await updateCredits({ keyId, operation: 'decrement', value: 4 })).toEqual({ remaining: 6 });
    expect(await updateCredits({ keyId, operation: 'decrement', value: 100 })).toEqual({ remaining: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED', credits: 0 });
  });

  test('set replaces the balance and keeps the refill settings, which the answer shows', async () => {
    const refill = { interval: 'monthly', amount: 100, refillDay: 1 };
    const { keyId } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 3, refill } });
    expect(await updateCredits({ keyId, operation: 'set', value: 42 })).toEqual({ remaining: 42, refill });
    expect(await creditsOf(keyId)).toEqual({ remaining: 42, refill });
    expect(await updateCredits({ keyId, operation: 'increment', value: 1 })).toEqual({ remaining: 43, refill });
  });

  test('set with a value makes an unlimited key limited', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    expect(await updateCredits({ keyId, operation: 'set', value: 1 })).toEqual({ remaining: 1 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 0 });
    expect((await h.verify(key)).body.data.code).toBe('USAGE_EXCEEDED');
  });

  test.each([
    ['value null', { value: null }],
    ['value omitted', {}],
  ])('set with %s makes the key unlimited', async (_name, value) => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 0, refill: { interval: 'daily', amount: 10 } } });
    expect(await updateCredits({ keyId, operation: 'set', ...value })).toEqual({ remaining: null });
    expect(await creditsOf(keyId)).toBeUndefined();
    const verified = (await h.verify(key)).body.data;
    expect(verified.code).toBe('VALID');
    expect(verified).not.toHaveProperty('credits');
  });

  test('set 0 is a balance, not unlimited', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5 } });
    expect(await updateCredits({ keyId, operation: 'set', value: 0 })).toEqual({ remaining: 0 });
    expect((await h.verify(key)).body.data.code).toBe('USAGE_EXCEEDED');
  });

  test('concurrent increments and verifications lose nothing', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 100 } });
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => h.call('keys.updateCredits', { keyId, operation: 'increment', value: 3 })),
      ...Array.from({ length: 30 }, () => h.verify(key)),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await creditsOf(keyId)).toEqual({ remaining: 100 + 20 * 3 - 30 });
  });

  test('a root key with api.<apiId>.update_key may change credits of that API', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId, credits: { remaining: 1 } });
    const scoped = await h.rootKey([`api.${apiId}.update_key`]);
    const res = await h.call('keys.updateCredits', { keyId, operation: 'increment', value: 1 }, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ remaining: 2 });
  });
});
