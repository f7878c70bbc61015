import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';

const MINUTE = 60_000;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

describe('keys.rerollKey → 200', () => {
  const h = useHarness();
  const reroll = async (keyId: string, expiration: number) => {
    const res = await h.call('keys.rerollKey', { keyId, expiration });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { keyId: string; key: string };
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;

  test('answers a new key; both keys verify until the old one expires', async () => {
    const old = await h.createKey({ apiId: await h.createApi(), prefix: 'rr' });
    const rolled = await reroll(old.keyId, 5 * MINUTE);
    expect(Object.keys(rolled).sort()).toEqual(['key', 'keyId']);
    expect(rolled.keyId).toMatch(/^key_/);
    expect(rolled.keyId).not.toBe(old.keyId);
    expect(rolled.key).not.toBe(old.key);
    expect((await h.verify(rolled.key)).body.data).toMatchObject({ valid: true, keyId: rolled.keyId });
    expect((await h.verify(old.key)).body.data).toMatchObject({ valid: true, keyId: old.keyId });
  });

  test('the old key expires `expiration` from now, rounded up to the next whole minute', async () => {
    const old = await h.createKey({ apiId: await h.createApi() });
    const before = Date.now();
    await reroll(old.keyId, 90_000);
    const after = Date.now();
    const { expires, updatedAt } = await getKey(old.keyId);
    expect(expires % MINUTE).toBe(0);
    expect(expires).toBeGreaterThanOrEqual(Math.ceil((before + 90_000) / MINUTE) * MINUTE);
    expect(expires).toBeLessThanOrEqual(Math.ceil((after + 90_000) / MINUTE) * MINUTE);
    expect(updatedAt).toBeGreaterThanOrEqual(before);
    expect((await h.verify(old.key)).body.data).toMatchObject({ code: 'VALID', expires });
  });

  test('expiration 0 expires the old key at once; the new key is valid', async () => {
    const old = await h.createKey({ apiId: await h.createApi() });
    const rolled = await reroll(old.keyId, 0);
    const after = Date.now();
    expect((await h.verify(old.key)).body.data).toMatchObject({ valid: false, code: 'EXPIRED' });
    expect((await h.verify(rolled.key)).body.data.code).toBe('VALID');
    expect((await getKey(old.keyId)).expires).toBeLessThanOrEqual(after);
  });

  test('the prefix is the text before the first `_` of the old key, with 16 fresh random bytes', async () => {
    const apiId = await h.createApi();
    const cases: [string | undefined, RegExp][] = [['sk', /^sk_/], ['my_app', /^my_/], [undefined, BASE58]];
    for (const [prefix, shape] of cases) {
      const old = await h.createKey({ apiId, ...(prefix ? { prefix } : {}), byteLength: 64 });
      const { key } = await reroll(old.keyId, MINUTE);
      expect(key).toMatch(shape);
      const random = key.includes('_') ? key.slice(key.indexOf('_') + 1) : key;
      expect(random).toMatch(BASE58);
      // 16 bytes, not the old key's 64: about 22 base58 characters.
      expect(random.length).toBeGreaterThanOrEqual(21);
      expect(random.length).toBeLessThanOrEqual(22);
      if (prefix === 'my_app') expect(key.startsWith('my_app_')).toBe(false);
    }
  });

  test('the new key copies every setting of the old one, and the old key\'s expiry', async () => {
    const apiId = await h.createApi();
    const identityId = await h.createIdentity({ externalId: 'reroll_user' });
    const expires = Date.now() + 86_400_000;
    const old = await h.createKey({
      apiId, name: 'ci', meta: { env: 'prod' }, externalId: 'reroll_user', expires, enabled: false,
      permissions: ['deploy', 'read'],
      credits: { remaining: 10, refill: { interval: 'daily', amount: 10 } },
      ratelimits: [{ name: 'requests', limit: 5, duration: 60_000, autoApply: true }],
    });
    await h.call('keys.updateKey', { keyId: old.keyId, enabled: true });
    await h.verify(old.key, { credits: { cost: 3 } });
    const oldData = await getKey(old.keyId);
    const rolled = await reroll(old.keyId, MINUTE);
    const data = await getKey(rolled.keyId);
    expect(data).toEqual({
      keyId: rolled.keyId, start: rolled.key.slice(0, 4), enabled: true, name: 'ci', meta: { env: 'prod' },
      createdAt: expect.any(Number), expires,
      permissions: expect.arrayContaining(['deploy', 'read']),
      credits: { remaining: 7, refill: { interval: 'daily', amount: 10 } },
      identity: { id: identityId, externalId: 'reroll_user' },
      ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'requests', limit: 5, duration: 60_000, autoApply: true }],
    });
    expect(data.permissions).toHaveLength(2);
    // New limit ids: the new key's limits are its own.
    expect(data.ratelimits[0].id).not.toBe(oldData.ratelimits[0].id);
  });

  test('the new key keeps the old key\'s roles, and with them their permissions', async () => {
    expect((await h.call('permissions.createRole', { name: 'rr_ops', permissions: ['rr.deploy'] })).status).toBe(200);
    const old = await h.createKey({ apiId: await h.createApi(), roles: ['rr_ops'] });
    const rolled = await reroll(old.keyId, MINUTE);
    expect((await getKey(rolled.keyId)).roles).toEqual(['rr_ops']);
    expect((await h.verify(rolled.key, { permissions: 'rr.deploy' })).body.data.code).toBe('VALID');
  });

  test('the new key\'s credits and limits count apart from the old key\'s', async () => {
    await waitForWindowRoom(MINUTE);
    const old = await h.createKey({
      apiId: await h.createApi(), credits: { remaining: 2 }, ratelimits: [{ name: 'once', limit: 1, duration: MINUTE, autoApply: true }],
    });
    expect((await h.verify(old.key)).body.data).toMatchObject({ valid: true, credits: 1 });
    expect((await h.verify(old.key)).body.data.code).toBe('RATE_LIMITED');
    const rolled = await reroll(old.keyId, 10 * MINUTE);
    expect((await h.verify(rolled.key)).body.data).toMatchObject({ valid: true, credits: 0 });
    expect((await getKey(old.keyId)).credits).toEqual({ remaining: 1 });
  });

  test('an unlimited key rerolls to an unlimited key', async () => {
    const old = await h.createKey({ apiId: await h.createApi() });
    const rolled = await reroll(old.keyId, MINUTE);
    expect(await getKey(rolled.keyId)).not.toHaveProperty('credits');
    expect((await h.verify(rolled.key)).body.data).not.toHaveProperty('credits');
  });

  test('the old key can be rerolled again while it is still valid; extra top-level fields are tolerated', async () => {
    const old = await h.createKey({ apiId: await h.createApi() });
    await reroll(old.keyId, MINUTE);
    const res = await h.call('keys.rerollKey', { keyId: old.keyId, expiration: MINUTE, note: 'rotation' });
    expect(res.status).toBe(200);
    expect((await h.verify(res.body.data.key)).body.data.code).toBe('VALID');
  });

  test('a root key with api.<apiId>.create_key may reroll keys of that API', async () => {
    const apiId = await h.createApi();
    const old = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.create_key`]);
    const res = await h.call('keys.rerollKey', { keyId: old.keyId, expiration: MINUTE }, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect((await h.verify(res.body.data.key)).body.data.code).toBe('VALID');
  });
});
