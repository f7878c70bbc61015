import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

describe('keys.createKey → 200', () => {
  const h = useHarness();

  test('returns keyId and the plaintext key: prefix_ + base58 of 16 random bytes', async () => {
    const apiId = await h.createApi();
    const res = await h.call('keys.createKey', { apiId, prefix: 'sk_live' });
    expect(res.status).toBe(200);
    const { keyId, key } = res.body.data;
    expect(keyId).toMatch(/^key_/);
    expect(key.startsWith('sk_live_')).toBe(true);
    const random = key.slice('sk_live_'.length);
    expect(random).toMatch(BASE58);
    expect(random.length).toBeGreaterThanOrEqual(21);
    expect(random.length).toBeLessThanOrEqual(22);
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, keyId });
  });

  test('only the hash is stored: base64 SHA-256 of the whole key, and `start` for display', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), prefix: 'pk' });
    const record = await h.keygate.services.storage.keys.get(keyId);
    expect(record?.hash).toBe(createHash('sha256').update(key).digest('base64'));
    expect(record?.start).toBe(key.slice(0, 'pk_'.length + 4));
    expect(JSON.stringify(record)).not.toContain(key);
  });

  test('without a prefix the key is the bare encoding; byteLength sets its strength', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), byteLength: 32 });
    expect(key).toMatch(BASE58);
    expect(key.length).toBeGreaterThanOrEqual(43);
  });

  test('every key is different', async () => {
    const apiId = await h.createApi();
    const keys = await Promise.all(Array.from({ length: 20 }, () => h.createKey({ apiId })));
    expect(new Set(keys.map((k) => k.key)).size).toBe(20);
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(20);
  });

  test('credits with a monthly refill are accepted; a daily refill ignores refillDay', async () => {
    const apiId = await h.createApi();
    const monthly = await h.createKey({ apiId, credits: { remaining: 10, refill: { interval: 'monthly', amount: 10, refillDay: 31 } } });
    const daily = await h.createKey({ apiId, credits: { remaining: 5, refill: { interval: 'daily', amount: 5, refillDay: 3 } } });
    expect((await h.keygate.services.storage.keys.getCredits(monthly.keyId))?.refill).toEqual({ interval: 'monthly', amount: 10, refillDay: 31 });
    expect((await h.keygate.services.storage.keys.getCredits(daily.keyId))?.refill).toEqual({ interval: 'daily', amount: 5 });
  });

  test('credits.remaining null means unlimited', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: null } });
    expect((await h.verify(key)).body.data).not.toHaveProperty('credits');
  });

  test('a root key with api.<apiId>.create_key can create keys for that API', async () => {
    const apiId = await h.createApi();
    const scoped = await h.rootKey([`api.${apiId}.create_key`]);
    expect((await h.call('keys.createKey', { apiId }, { rootKey: scoped })).status).toBe(200);
  });

  test('a limit without autoApply is accepted, stored with autoApply false, and not applied unless named', async () => {
    const res = await h.call('keys.createKey', { apiId: await h.createApi(), ratelimits: [{ name: 'requests', limit: 1, duration: 60000 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { keyId, key } = res.body.data;
    const got = await h.call('keys.getKey', { keyId });
    expect(got.body.data.ratelimits).toEqual([expect.objectContaining({ name: 'requests', limit: 1, duration: 60000, autoApply: false })]);
    // Not auto-applied: two verifications without naming it both pass.
    for (let i = 0; i < 2; i++) expect((await h.verify(key)).body.data.valid).toBe(true);
  });
});
