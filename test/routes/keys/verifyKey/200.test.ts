import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';

describe('keys.verifyKey → 200', () => {
  const h = useHarness();

  test('a valid key answers VALID with its data; nothing empty is sent', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId, name: 'acme backend', meta: { plan: 'pro' }, permissions: ['reports.read'] });
    const res = await h.verify(key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true, code: 'VALID', keyId, name: 'acme backend', meta: { plan: 'pro' }, enabled: true, permissions: ['reports.read'],
    });
  });

  test('empty meta, on the key or its identity, is left out as getKey leaves it out', async () => {
    const apiId = await h.createApi();
    const identityId = await h.createIdentity({ externalId: 'empty-meta', meta: {} });
    const { keyId, key } = await h.createKey({ apiId, meta: {}, externalId: 'empty-meta' });
    const identity = { id: identityId, externalId: 'empty-meta' };
    expect((await h.verify(key)).body.data).toEqual({ valid: true, code: 'VALID', keyId, enabled: true, identity });
    expect((await h.call('keys.getKey', { keyId })).body.data).toEqual({ keyId, start: expect.any(String), enabled: true, createdAt: expect.any(Number), identity });
  });

  test('an unknown key answers the minimal NOT_FOUND', async () => {
    const res = await h.verify('sk_thiskeydoesnotexist');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  test('a disabled key answers DISABLED with its data', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), enabled: false });
    const res = await h.verify(key);
    expect(res.body.data).toMatchObject({ valid: false, code: 'DISABLED', keyId, enabled: false });
  });

  test('an expired key answers EXPIRED with its expiry', async () => {
    const expires = Date.now() - 1000;
    const { key } = await h.createKey({ apiId: await h.createApi(), expires });
    const res = await h.verify(key);
    expect(res.body.data).toMatchObject({ valid: false, code: 'EXPIRED', expires });
  });

  test('a key that expires later is VALID and shows its expiry', async () => {
    const expires = Date.now() + 3_600_000;
    const { key } = await h.createKey({ apiId: await h.createApi(), expires });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, code: 'VALID', expires });
  });

  test('credits: each verification takes 1, then USAGE_EXCEEDED with the balance unchanged', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 2 } });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 1 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED', credits: 0 });
  });

  test('credits: a custom cost is taken whole or not at all; cost 0 passes at 0 remaining', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5 } });
    expect((await h.verify(key, { credits: { cost: 3 } })).body.data).toMatchObject({ valid: true, credits: 2 });
    expect((await h.verify(key, { credits: { cost: 3 } })).body.data).toMatchObject({ code: 'USAGE_EXCEEDED', credits: 2 });
    expect((await h.verify(key, { credits: { cost: 2 } })).body.data).toMatchObject({ valid: true, credits: 0 });
    expect((await h.verify(key, { credits: { cost: 0 } })).body.data).toMatchObject({ valid: true, credits: 0 });
  });

  test('credits: 100 concurrent verifications of a key with 30 credits admit exactly 30', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 30 } });
    const results = await Promise.all(Array.from({ length: 100 }, () => h.verify(key)));
    expect(results.filter((r) => r.body.data.valid).length).toBe(30);
    expect(results.every((r) => r.body.data.credits >= 0)).toBe(true);
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'USAGE_EXCEEDED', credits: 0 });
  });

  test('an unlimited key ignores credits.cost and sends no credits field', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi() });
    const data = (await h.verify(key, { credits: { cost: 1000 } })).body.data;
    expect(data.valid).toBe(true);
    expect(data).not.toHaveProperty('credits');
  });

  test('a disabled key consumes no credits', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), enabled: false, credits: { remaining: 3 } });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'DISABLED', credits: 3 });
    expect((await h.verify(key)).body.data).toMatchObject({ code: 'DISABLED', credits: 3 });
  });

  test('permissions query: satisfied → VALID, not satisfied → INSUFFICIENT_PERMISSIONS', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), permissions: ['docs.read', 'docs.write'] });
    expect((await h.verify(key, { permissions: 'docs.read AND docs.write' })).body.data.code).toBe('VALID');
    expect((await h.verify(key, { permissions: 'docs.delete OR (docs.read and docs.write)' })).body.data.code).toBe('VALID');
    const denied = (await h.verify(key, { permissions: 'docs.read AND docs.delete' })).body.data;
    expect(denied).toMatchObject({ valid: false, code: 'INSUFFICIENT_PERMISSIONS', permissions: ['docs.read', 'docs.write'] });
    // `*` is literal: a wildcard-looking query is not satisfied by concrete slugs.
    expect((await h.verify(key, { permissions: 'docs.*' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('a root key scoped to one API sees keys of other APIs as NOT_FOUND', async () => {
    const apiA = await h.createApi('api-a');
    const apiB = await h.createApi('api-b');
    const { key: keyA } = await h.createKey({ apiId: apiA });
    const { key: keyB } = await h.createKey({ apiId: apiB });
    const scoped = await h.rootKey([`api.${apiA}.verify_key`]);
    expect((await h.call('keys.verifyKey', { key: keyA }, { rootKey: scoped })).body.data.code).toBe('VALID');
    expect((await h.call('keys.verifyKey', { key: keyB }, { rootKey: scoped })).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  test('key-level limits: autoApply runs at cost 1; a named request sets the cost; inline limits count per key', async () => {
    await waitForWindowRoom(60_000);
    const { key } = await h.createKey({
      apiId: await h.createApi(),
      ratelimits: [
        { name: 'requests', limit: 3, duration: 60_000, autoApply: true },
        { name: 'tokens', limit: 10, duration: 60_000, autoApply: false },
      ],
    });
    const first = (await h.verify(key)).body.data;
    expect(first.ratelimits).toEqual([
      expect.objectContaining({ name: 'requests', limit: 3, duration: 60_000, remaining: 2, exceeded: false, autoApply: true,
        reset: (Math.floor(Date.now() / 60_000) + 1) * 60_000 }),
    ]);
    const named = (await h.verify(key, { ratelimits: [{ name: 'tokens', cost: 4 }] })).body.data;
    expect(named.ratelimits.find((r: any) => r.name === 'tokens')).toMatchObject({ remaining: 6, exceeded: false });
    expect(named.ratelimits.find((r: any) => r.name === 'requests')).toMatchObject({ remaining: 1 });
    const inline = (await h.verify(key, { ratelimits: [{ name: 'burst', limit: 1, duration: 60_000 }] })).body.data;
    expect(inline.ratelimits.find((r: any) => r.name === 'burst')).toMatchObject({ id: '', limit: 1, remaining: 0, autoApply: false });
  });

  test('a rate-limited verification consumes no credits and no sibling limit', async () => {
    await waitForWindowRoom(60_000);
    const { key } = await h.createKey({
      apiId: await h.createApi(),
      credits: { remaining: 100 },
      ratelimits: [
        { name: 'small', limit: 1, duration: 60_000, autoApply: false },
        { name: 'large', limit: 100, duration: 60_000, autoApply: false },
      ],
    });
    const both = [{ name: 'small' }, { name: 'large' }];
    expect((await h.verify(key, { ratelimits: both })).body.data).toMatchObject({ valid: true, credits: 99 });
    const denied = (await h.verify(key, { ratelimits: both })).body.data;
    expect(denied).toMatchObject({ valid: false, code: 'RATE_LIMITED', credits: 99 });
    expect(denied.ratelimits.find((r: any) => r.name === 'small')).toMatchObject({ exceeded: true, remaining: 0 });
    // 'large' was not consumed by the denied call: a cost-0 read still shows 99 left.
    const read = (await h.verify(key, { ratelimits: [{ name: 'large', cost: 0 }] })).body.data;
    expect(read.ratelimits[0]).toMatchObject({ name: 'large', remaining: 99 });
  });
});
