/** keys.deleteKey and keys.rerollKey through the official SDK (split from keys.test.ts for length). */
import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const MINUTE = 60_000;
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);
const errorOf = (e: unknown) => (e as errors.NotFoundErrorResponse).data$.error;

describe('the official SDK against keygate: keys.deleteKey', () => {
  const h = useHarness();

  test('a deleted key stops verifying at once and is gone for every procedure; both forms remove it', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-delete' })).data;
    const soft = (await unkey.keys.createKey({ apiId })).data;
    const hard = (await unkey.keys.createKey({ apiId })).data;
    const kept = (await unkey.keys.createKey({ apiId })).data;

    expect((await unkey.keys.deleteKey({ keyId: soft.keyId })).data).toEqual({});
    expect((await unkey.keys.deleteKey({ keyId: hard.keyId, permanent: true })).data).toEqual({});
    for (const gone of [soft, hard]) {
      expect((await unkey.keys.verifyKey({ key: gone.key })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
      expect(await rejection(unkey.keys.getKey({ keyId: gone.keyId }))).toBeInstanceOf(errors.NotFoundErrorResponse);
      expect(await rejection(unkey.keys.whoami({ key: gone.key }))).toBeInstanceOf(errors.NotFoundErrorResponse);
      const again = await rejection(unkey.keys.deleteKey({ keyId: gone.keyId }));
      expect(again).toBeInstanceOf(errors.NotFoundErrorResponse);
      expect(errorOf(again)).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/key_not_found` });
    }
    expect((await unkey.apis.listKeys({ apiId })).result.data.map((k) => k.keyId)).toEqual([kept.keyId]);
    expect((await unkey.keys.verifyKey({ key: kept.key })).data.valid).toBe(true);
  });

  test('errors: 403 naming delete_key (the key survives), 400 for a malformed id, 401 for an unknown root key', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-delete-errors' })).data;
    const { keyId, key } = (await unkey.keys.createKey({ apiId })).data;

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_key', 'api.*.update_key'])).keys.deleteKey({ keyId }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden)).toMatchObject({ status: 403, type: `${DOCS}/forbidden` });
    expect(errorOf(forbidden).detail).toContain('api.*.delete_key');
    expect((await unkey.keys.verifyKey({ key })).data.valid).toBe(true);

    expect(await rejection(unkey.keys.deleteKey({ keyId: 'k' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(sdkFor(h, 'kg_unknown_root').keys.deleteKey({ keyId }))).toBeInstanceOf(errors.UnauthorizedErrorResponse);

    const scoped = sdkFor(h, await h.rootKey([`api.${apiId}.delete_key`]));
    expect((await scoped.keys.deleteKey({ keyId })).data).toEqual({});
    expect((await unkey.keys.verifyKey({ key })).data.code).toBe('NOT_FOUND');
  });
});

describe('the official SDK against keygate: keys.rerollKey', () => {
  const h = useHarness();

  test('the new key has the old one\'s settings; the old one expires at the next whole minute after expiration', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-reroll' })).data;
    await unkey.permissions.createRole({ name: 'sdk-rr-role', permissions: ['rr.via_role'] });
    const old = (await unkey.keys.createKey({
      apiId, prefix: 'rr', name: 'rotating', meta: { v: 1 }, externalId: 'rr_user', credits: { remaining: 9 },
      permissions: ['rr.direct'], roles: ['sdk-rr-role'], ratelimits: [{ name: 'req', limit: 100, duration: MINUTE }],
    })).data;
    const oldLimitId = (await unkey.keys.getKey({ keyId: old.keyId })).data.ratelimits![0]!.id;

    const before = Date.now();
    const rerolled = (await unkey.keys.rerollKey({ keyId: old.keyId, expiration: 2 * MINUTE })).data;
    const after = Date.now();
    expect(rerolled.keyId).toMatch(/^key_/);
    expect(rerolled.keyId).not.toBe(old.keyId);
    expect(rerolled.key).toMatch(/^rr_/);
    expect(rerolled.key).not.toBe(old.key);

    const fresh = (await unkey.keys.getKey({ keyId: rerolled.keyId })).data;
    expect(fresh).toMatchObject({
      name: 'rotating', meta: { v: 1 }, enabled: true, identity: { externalId: 'rr_user' }, credits: { remaining: 9 },
      roles: ['sdk-rr-role'], ratelimits: [{ name: 'req', limit: 100, duration: MINUTE, autoApply: false }],
    });
    expect(fresh).not.toHaveProperty('expires');
    expect([...fresh.permissions!].sort()).toEqual(['rr.direct', 'rr.via_role']);
    expect(fresh.ratelimits![0]!.id).not.toBe(oldLimitId);

    const oldExpires = (await unkey.keys.getKey({ keyId: old.keyId })).data.expires!;
    expect(oldExpires % MINUTE).toBe(0);
    expect(oldExpires).toBeGreaterThanOrEqual(Math.ceil((before + 2 * MINUTE) / MINUTE) * MINUTE);
    expect(oldExpires).toBeLessThanOrEqual(Math.ceil((after + 2 * MINUTE) / MINUTE) * MINUTE);

    // Both keys work until the old one expires.
    expect((await unkey.keys.verifyKey({ key: old.key })).data).toMatchObject({ valid: true, keyId: old.keyId, credits: 8 });
    expect((await unkey.keys.verifyKey({ key: rerolled.key })).data).toMatchObject({ valid: true, keyId: rerolled.keyId, credits: 8 });
  });

  test('expiration 0 expires the old key at once; the new key keeps the old key\'s expiry', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-reroll-now' })).data;
    const expires = Date.now() + 3_600_000;
    const old = (await unkey.keys.createKey({ apiId, expires })).data;
    const rerolled = (await unkey.keys.rerollKey({ keyId: old.keyId, expiration: 0 })).data;
    expect((await unkey.keys.verifyKey({ key: old.key })).data).toMatchObject({ valid: false, code: 'EXPIRED', keyId: old.keyId });
    expect((await unkey.keys.verifyKey({ key: rerolled.key })).data).toMatchObject({ valid: true, code: 'VALID', expires });
  });

  test('errors: unknown key (404), 403 naming create_key, negative expiration (400)', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-reroll-errors' })).data;
    const { keyId, key } = (await unkey.keys.createKey({ apiId })).data;

    const missing = await rejection(unkey.keys.rerollKey({ keyId: 'key_00000000', expiration: 0 }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing).type).toBe(`${DOCS}/unkey/data/key_not_found`);

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_key', 'api.*.update_key'])).keys.rerollKey({ keyId, expiration: 0 }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain('api.*.create_key');
    expect((await unkey.keys.verifyKey({ key })).data.valid).toBe(true);
    expect((await unkey.apis.listKeys({ apiId })).result.data).toHaveLength(1);

    expect(await rejection(unkey.keys.rerollKey({ keyId, expiration: -1 }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });
});
