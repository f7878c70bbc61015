import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.getKey → 200', () => {
  const h = useHarness();

  test('a bare key shows only what it has: no empty name, meta, credits, identity or limits', async () => {
    const before = Date.now();
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), prefix: 'gk' });
    const res = await h.call('keys.getKey', { keyId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ keyId, start: key.slice(0, 'gk_'.length + 4), enabled: true, createdAt: expect.any(Number) });
    expect(res.body.data.createdAt).toBeGreaterThanOrEqual(before);
    expect(res.body.data.createdAt).toBeLessThanOrEqual(Date.now());
  });

  test('a fully configured key is described completely, and never with its plaintext or hash', async () => {
    const apiId = await h.createApi();
    const identityId = await h.createIdentity({ externalId: 'getkey_full', meta: { tier: 'gold' }, ratelimits: [{ name: 'shared', limit: 9, duration: 60_000, autoApply: false }] });
    const expires = Date.now() + 3_600_000;
    const { keyId, key } = await h.createKey({
      apiId, name: 'backend', meta: { plan: 'pro' }, externalId: 'getkey_full', expires, enabled: false,
      permissions: ['docs.write', 'docs.read', 'docs.read'],
      credits: { remaining: 7, refill: { interval: 'monthly', amount: 10, refillDay: 15 } },
      ratelimits: [{ name: 'requests', limit: 5, duration: 1000, autoApply: true }],
    });
    const data = (await h.call('keys.getKey', { keyId })).body.data;
    expect(data).toEqual({
      keyId, start: expect.any(String), enabled: false, name: 'backend', meta: { plan: 'pro' }, createdAt: expect.any(Number), expires,
      permissions: expect.arrayContaining(['docs.read', 'docs.write']),
      credits: { remaining: 7, refill: { interval: 'monthly', amount: 10, refillDay: 15 } },
      identity: { id: identityId, externalId: 'getkey_full', meta: { tier: 'gold' }, ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'shared', limit: 9, duration: 60_000, autoApply: false }] },
      ratelimits: [{ id: expect.stringMatching(/^rl_/), name: 'requests', limit: 5, duration: 1000, autoApply: true }],
    });
    expect(data.permissions).toHaveLength(2);
    expect(JSON.stringify(data)).not.toContain(key);
    expect(data).not.toHaveProperty('plaintext');
  });

  test('permissions are the effective set: direct slugs and those of the key\'s roles, without duplicates', async () => {
    expect((await h.call('permissions.createRole', { name: 'gk_reader', permissions: ['gk.read', 'gk.list'] })).status).toBe(200);
    const { keyId } = await h.createKey({ apiId: await h.createApi(), roles: ['gk_reader'], permissions: ['gk.read', 'gk.write'] });
    const data = (await h.call('keys.getKey', { keyId })).body.data;
    expect(data.roles).toEqual(['gk_reader']);
    expect([...data.permissions].sort()).toEqual(['gk.list', 'gk.read', 'gk.write']);
  });

  test('credits show the balance left after verifications', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 3 } });
    await h.verify(key);
    await h.verify(key, { credits: { cost: 2 } });
    expect((await h.call('keys.getKey', { keyId })).body.data.credits).toEqual({ remaining: 0 });
  });

  test('a key whose identity was deleted shows no identity', async () => {
    const identityId = await h.createIdentity({ externalId: 'getkey_gone' });
    const { keyId } = await h.createKey({ apiId: await h.createApi(), externalId: 'getkey_gone' });
    expect((await h.call('keys.getKey', { keyId })).body.data.identity).toEqual({ id: identityId, externalId: 'getkey_gone' });
    await h.keygate.services.storage.identities.delete(identityId);
    expect((await h.call('keys.getKey', { keyId })).body.data).not.toHaveProperty('identity');
  });

  test('a root key with api.<apiId>.read_key reads keys of that API', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.read_key`]);
    const res = await h.call('keys.getKey', { keyId }, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data.keyId).toBe(keyId);
  });

});
