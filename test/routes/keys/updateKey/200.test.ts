import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';

describe('keys.updateKey → 200', () => {
  const h = useHarness();
  const update = async (body: Record<string, unknown>) => {
    const res = await h.call('keys.updateKey', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({});
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;

  test('enabled: false makes the key verify as DISABLED; true makes it VALID again', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, enabled: false });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: false, code: 'DISABLED', enabled: false });
    await update({ keyId, enabled: true });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, code: 'VALID' });
  });

  test('three states: an omitted field is kept, null clears it, a value sets it', async () => {
    const expires = Date.now() + 3_600_000;
    const { keyId } = await h.createKey({ apiId: await h.createApi(), name: 'first', meta: { a: 1 }, expires });
    await update({ keyId });
    expect(await getKey(keyId)).toMatchObject({ name: 'first', meta: { a: 1 }, expires });

    await update({ keyId, name: 'second', meta: { b: 2 } });
    const renamed = await getKey(keyId);
    // meta is replaced whole, not merged.
    expect(renamed).toMatchObject({ name: 'second', meta: { b: 2 }, expires });

    await update({ keyId, name: null, meta: null, expires: null });
    const cleared = await getKey(keyId);
    expect(cleared).not.toHaveProperty('name');
    expect(cleared).not.toHaveProperty('meta');
    expect(cleared).not.toHaveProperty('expires');
  });

  test('expires: a past value makes the key EXPIRED, null makes it never expire', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, expires: Date.now() - 1000 });
    expect((await h.verify(key)).body.data.code).toBe('EXPIRED');
    await update({ keyId, expires: null });
    expect((await h.verify(key)).body.data.code).toBe('VALID');
  });

  test('updatedAt is set on every update', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    expect(await getKey(keyId)).not.toHaveProperty('updatedAt');
    const before = Date.now();
    await update({ keyId, name: 'touched' });
    const { updatedAt } = await getKey(keyId);
    expect(updatedAt).toBeGreaterThanOrEqual(before);
    expect(updatedAt).toBeLessThanOrEqual(Date.now());
  });

  test('externalId links the key to that identity, creating it if needed; null unlinks', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, externalId: 'upd_new_user' });
    const created = (await getKey(keyId)).identity;
    expect(created).toEqual({ id: expect.stringMatching(/^id_/), externalId: 'upd_new_user' });
    expect((await h.verify(key)).body.data.identity).toMatchObject({ id: created.id, externalId: 'upd_new_user' });

    const existingId = await h.createIdentity({ externalId: 'upd_existing', ratelimits: [{ name: 'shared', limit: 1, duration: 60_000, autoApply: false }] });
    await update({ keyId, externalId: 'upd_existing' });
    expect((await getKey(keyId)).identity).toMatchObject({ id: existingId, externalId: 'upd_existing' });
    // The identity's limits now apply to the key.
    expect((await h.verify(key, { ratelimits: [{ name: 'shared', cost: 0 }] })).body.data.code).toBe('VALID');

    await update({ keyId, externalId: null });
    expect(await getKey(keyId)).not.toHaveProperty('identity');
    expect((await h.verify(key)).body.data).not.toHaveProperty('identity');
  });

  test('ratelimits replace the whole set: kept names keep their id, new names get one, missing names go', async () => {
    const { keyId } = await h.createKey({
      apiId: await h.createApi(),
      ratelimits: [
        { name: 'requests', limit: 10, duration: 60_000, autoApply: true },
        { name: 'tokens', limit: 100, duration: 60_000, autoApply: false },
      ],
    });
    const before = (await getKey(keyId)).ratelimits;
    const requestsId = before.find((r: any) => r.name === 'requests').id;
    await update({ keyId, ratelimits: [
      { name: 'requests', limit: 1, duration: 1000, autoApply: false },
      { name: 'burst', limit: 5, duration: 1000, autoApply: true },
    ] });
    const after = (await getKey(keyId)).ratelimits;
    expect(after).toHaveLength(2);
    expect(after).toContainEqual({ id: requestsId, name: 'requests', limit: 1, duration: 1000, autoApply: false });
    const burst = after.find((r: any) => r.name === 'burst');
    expect(burst).toMatchObject({ limit: 5, duration: 1000, autoApply: true });
    expect(burst.id).toMatch(/^rl_/);
    expect(before.map((r: any) => r.id)).not.toContain(burst.id);

    await update({ keyId, ratelimits: [] });
    expect(await getKey(keyId)).not.toHaveProperty('ratelimits');
  });

  test('a lowered limit is enforced at the next verification', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), ratelimits: [{ name: 'requests', limit: 100, duration: 60_000, autoApply: true }] });
    await update({ keyId, ratelimits: [{ name: 'requests', limit: 1, duration: 60_000, autoApply: true }] });
    await waitForWindowRoom(60_000);
    const results = [await h.verify(key), await h.verify(key)];
    expect(results.map((r) => r.body.data.code)).toContain('RATE_LIMITED');
  });

  test('permissions replace the direct permissions; verification follows', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['docs.read'] });
    await update({ keyId, permissions: ['docs.write', 'docs.write', 'admin'] });
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['admin', 'docs.write']);
    expect((await h.verify(key, { permissions: 'docs.read' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await h.verify(key, { permissions: 'docs.write AND admin' })).body.data.code).toBe('VALID');
    await update({ keyId, permissions: [] });
    expect(await getKey(keyId)).not.toHaveProperty('permissions');
  });

  test('roles replace the key\'s roles (names resolved case-insensitively); their permissions count at once; [] clears', async () => {
    expect((await h.call('permissions.createRole', { name: 'UpdEditor', permissions: ['upd.docs.write'] })).status).toBe(200);
    expect((await h.call('permissions.createRole', { name: 'upd_viewer', permissions: ['upd.docs.read'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['upd_viewer'] });
    expect((await h.verify(key, { permissions: 'upd.docs.write' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');

    await update({ keyId, roles: ['updeditor', 'UPDEDITOR'] });
    const data = await getKey(keyId);
    expect(data.roles).toEqual(['UpdEditor']);
    expect(data.permissions).toEqual(['upd.docs.write']);
    expect((await h.verify(key, { permissions: 'upd.docs.write' })).body.data.code).toBe('VALID');
    expect((await h.verify(key, { permissions: 'upd.docs.read' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');

    await update({ keyId, roles: [] });
    const cleared = await getKey(keyId);
    expect(cleared).not.toHaveProperty('roles');
    expect(cleared).not.toHaveProperty('permissions');
  });

  test('unknown permission slugs are created; known ones are reused with their own spelling', async () => {
    const { WORKSPACE_ID } = await import('../../../../src/storage/records.js');
    const permissions = h.keygate.services.storage.permissions;
    expect(await permissions.findBySlug(WORKSPACE_ID, 'upd.fresh.slug')).toBeNull();
    expect((await h.call('permissions.createPermission', { name: 'Known', slug: 'upd.Known' })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, permissions: ['upd.fresh.slug', 'UPD.KNOWN'] });
    expect(await permissions.findBySlug(WORKSPACE_ID, 'upd.fresh.slug')).toMatchObject({ slug: 'upd.fresh.slug', name: 'upd.fresh.slug' });
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['upd.Known', 'upd.fresh.slug']);
    expect((await h.verify(key, { permissions: 'upd.Known AND upd.fresh.slug' })).body.data.code).toBe('VALID');
  });

  test('credits.remaining sets the balance and keeps the refill; verification uses it', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 1, refill: { interval: 'daily', amount: 50 } } });
    await update({ keyId, credits: { remaining: 3 } });
    expect((await getKey(keyId)).credits).toEqual({ remaining: 3, refill: { interval: 'daily', amount: 50 } });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 2 });
  });

  test('credits on an unlimited key make it limited', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, credits: { remaining: 1, refill: { interval: 'monthly', amount: 5, refillDay: 1 } } });
    expect((await getKey(keyId)).credits).toEqual({ remaining: 1, refill: { interval: 'monthly', amount: 5, refillDay: 1 } });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 0 });
    expect((await h.verify(key)).body.data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED' });
  });

  test('credits.refill alone replaces or clears the refill and keeps the balance', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 8, refill: { interval: 'daily', amount: 10 } } });
    await update({ keyId, credits: { refill: { interval: 'monthly', amount: 20, refillDay: 31 } } });
    expect((await getKey(keyId)).credits).toEqual({ remaining: 8, refill: { interval: 'monthly', amount: 20, refillDay: 31 } });
    await update({ keyId, credits: { refill: null } });
    expect((await getKey(keyId)).credits).toEqual({ remaining: 8 });
  });

  test('credits.remaining null, or credits null, makes the key unlimited and drops the refill', async () => {
    for (const credits of [{ remaining: null }, null]) {
      const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 0, refill: { interval: 'daily', amount: 10 } } });
      expect((await h.verify(key)).body.data.code).toBe('USAGE_EXCEEDED');
      await update({ keyId, credits });
      expect(await getKey(keyId)).not.toHaveProperty('credits');
      const verified = (await h.verify(key)).body.data;
      expect(verified.code).toBe('VALID');
      expect(verified).not.toHaveProperty('credits');
    }
  });

  test('a root key with api.<apiId>.update_key updates keys of that API', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.update_key`]);
    expect((await h.call('keys.updateKey', { keyId, name: 'scoped' }, { rootKey: scoped })).status).toBe(200);
    expect((await getKey(keyId)).name).toBe('scoped');
  });

  test('the plaintext key and the other keys of the API are untouched', async () => {
    const apiId = await h.createApi();
    const target = await h.createKey({ apiId, name: 'target' });
    const bystander = await h.createKey({ apiId, name: 'bystander' });
    await update({ keyId: target.keyId, name: 'renamed', enabled: false });
    expect((await h.verify(target.key)).body.data).toMatchObject({ keyId: target.keyId, name: 'renamed', code: 'DISABLED' });
    expect((await h.verify(bystander.key)).body.data).toMatchObject({ name: 'bystander', code: 'VALID' });
  });

  test('a limit without autoApply is accepted and stored with autoApply false', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    await update({ keyId, ratelimits: [{ name: 'requests', limit: 5, duration: 60000 }] });
    expect((await getKey(keyId)).ratelimits).toEqual([expect.objectContaining({ name: 'requests', limit: 5, duration: 60000, autoApply: false })]);
  });
});
