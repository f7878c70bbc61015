import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { waitForWindowRoom } from '../support/time.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const MINUTE = 60_000;
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);
const errorOf = (e: unknown) => (e as errors.NotFoundErrorResponse).data$.error;

describe('the official SDK against keygate: reading keys (getKey, whoami)', () => {
  const h = useHarness();

  test('getKey describes every setting of the key, never a plaintext; whoami finds the same key by plaintext', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-read' })).data;
    await unkey.permissions.createRole({ name: 'sdk-reader', permissions: ['reports.read'] });
    const expires = Date.now() + 3_600_000;
    const before = Date.now();
    const { keyId, key } = (await unkey.keys.createKey({
      apiId, prefix: 'rd', name: 'reader', meta: { team: 'blue' }, expires, externalId: 'read_user',
      credits: { remaining: 10, refill: { interval: 'daily', amount: 10 } },
      ratelimits: [{ name: 'req', limit: 5, duration: 60_000, autoApply: true }],
      permissions: ['docs.write', 'docs.read'], roles: ['sdk-reader'],
    })).data;

    // No key is stored in a recoverable form: decrypt is a 412, as Unkey answers without a vault
    // (the SDK declares no 412 here, so it raises its generic APIError).
    expect(await rejection(unkey.keys.getKey({ keyId, decrypt: true }))).toMatchObject({ statusCode: 412 });
    const got = (await unkey.keys.getKey({ keyId })).data;
    expect(got).toMatchObject({
      keyId, enabled: true, name: 'reader', meta: { team: 'blue' }, expires, roles: ['sdk-reader'],
      credits: { remaining: 10, refill: { interval: 'daily', amount: 10 } },
      identity: { externalId: 'read_user' },
      ratelimits: [{ name: 'req', limit: 5, duration: 60_000, autoApply: true }],
    });
    expect(got.start).toBe(key.slice(0, got.start.length));
    expect(got.start).toMatch(/^rd_.{4}$/);
    expect(got.createdAt).toBeGreaterThanOrEqual(before);
    expect(got.createdAt).toBeLessThanOrEqual(Date.now());
    expect([...got.permissions!].sort()).toEqual(['docs.read', 'docs.write', 'reports.read']);
    expect(got.identity!.id).toMatch(/^id_/);
    expect(got).not.toHaveProperty('plaintext');

    const me = (await unkey.keys.whoami({ key })).data;
    expect(me).toEqual({ ...got, permissions: ['docs.read', 'docs.write', 'reports.read'] });

    // whoami describes the key; it does not judge it.
    await unkey.keys.updateKey({ keyId, enabled: false, expires: Date.now() - 1000 });
    expect((await unkey.keys.whoami({ key })).data).toMatchObject({ keyId, enabled: false });
  });

  test('getKey errors: 404 for an unknown key, 403 naming read_key or decrypt_key, 400 for a malformed id', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-read-errors' })).data;
    const { keyId } = (await unkey.keys.createKey({ apiId })).data;

    const missing = await rejection(unkey.keys.getKey({ keyId: 'key_00000000' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing)).toMatchObject({ status: 404, type: `${DOCS}/unkey/data/key_not_found` });

    const noRead = sdkFor(h, await h.rootKey(['api.*.read_api']));
    const forbidden = await rejection(noRead.keys.getKey({ keyId }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain('api.*.read_key');
    expect(errorOf(forbidden).detail).toContain(`api.${apiId}.read_key`);

    const scoped = sdkFor(h, await h.rootKey([`api.${apiId}.read_key`]));
    expect((await scoped.keys.getKey({ keyId })).data.keyId).toBe(keyId);
    const noDecrypt = await rejection(scoped.keys.getKey({ keyId, decrypt: true }));
    expect(noDecrypt).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(noDecrypt).detail).toContain('decrypt_key');

    expect(await rejection(unkey.keys.getKey({ keyId: 'key-with-dash' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('whoami: an unknown key and a root key that may not read it get the same 404', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-whoami' })).data;
    const { key } = (await unkey.keys.createKey({ apiId })).data;

    const unknown = await rejection(unkey.keys.whoami({ key: 'nope_1234567890' }));
    expect(unknown).toBeInstanceOf(errors.NotFoundErrorResponse);
    const masked = await rejection(sdkFor(h, await h.rootKey(['api.*.verify_key'])).keys.whoami({ key }));
    expect(masked).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(masked)).toEqual(errorOf(unknown));
    expect(errorOf(masked)).toMatchObject({ type: `${DOCS}/unkey/data/key_not_found`, detail: 'The specified key was not found.' });

    expect((await sdkFor(h, await h.rootKey([`api.${apiId}.read_key`])).keys.whoami({ key })).data.start).toBe(key.slice(0, 4));
    expect(await rejection(unkey.keys.whoami({ key: '' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });
});

describe('the official SDK against keygate: keys.updateKey', () => {
  const h = useHarness();

  test('omitted keeps, null clears, a value sets', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-update' })).data;
    const { keyId, key } = (await unkey.keys.createKey({
      apiId, name: 'before', meta: { a: 1 }, expires: Date.now() + 3_600_000, externalId: 'upd_user', credits: { remaining: 5 },
    })).data;

    expect((await unkey.keys.updateKey({ keyId, name: 'after' })).data).toEqual({});
    const renamed = (await unkey.keys.getKey({ keyId })).data;
    expect(renamed).toMatchObject({ name: 'after', meta: { a: 1 }, identity: { externalId: 'upd_user' }, credits: { remaining: 5 } });
    expect(renamed.updatedAt).toBeGreaterThanOrEqual(renamed.createdAt);

    await unkey.keys.updateKey({ keyId, meta: { b: 2 }, externalId: 'upd_other' });
    expect((await unkey.keys.getKey({ keyId })).data).toMatchObject({ name: 'after', meta: { b: 2 }, identity: { externalId: 'upd_other' } });
    // The new externalId was created as an identity.
    expect((await unkey.identities.getIdentity({ identity: 'upd_other' })).data.externalId).toBe('upd_other');

    await unkey.keys.updateKey({ keyId, name: null, meta: null, expires: null, externalId: null });
    const cleared = (await unkey.keys.getKey({ keyId })).data;
    for (const field of ['name', 'meta', 'expires', 'identity'] as const) expect(cleared).not.toHaveProperty(field);
    expect(cleared.credits).toEqual({ remaining: 5 });

    await unkey.keys.updateKey({ keyId, credits: { remaining: 2, refill: { interval: 'monthly', amount: 20, refillDay: 3 } } });
    expect((await unkey.keys.getKey({ keyId })).data.credits).toEqual({ remaining: 2, refill: { interval: 'monthly', amount: 20, refillDay: 3 } });
    await unkey.keys.updateKey({ keyId, credits: { refill: null } });
    expect((await unkey.keys.getKey({ keyId })).data.credits).toEqual({ remaining: 2 });
    expect((await unkey.keys.verifyKey({ key })).data.credits).toBe(1);
    await unkey.keys.updateKey({ keyId, credits: { refill: { interval: 'daily', amount: 4 } } });
    expect((await unkey.keys.getKey({ keyId })).data.credits).toEqual({ remaining: 1, refill: { interval: 'daily', amount: 4 } });
    await unkey.keys.updateKey({ keyId, credits: { remaining: null } });
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('credits');
    await unkey.keys.updateKey({ keyId, credits: { remaining: 6 } });
    expect((await unkey.keys.getKey({ keyId })).data.credits).toEqual({ remaining: 6 });
    await unkey.keys.updateKey({ keyId, credits: null });
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('credits');
    expect((await unkey.keys.verifyKey({ key })).data).not.toHaveProperty('credits');

    await unkey.keys.updateKey({ keyId, enabled: false });
    expect((await unkey.keys.verifyKey({ key })).data).toMatchObject({ valid: false, code: 'DISABLED', enabled: false });
    await unkey.keys.updateKey({ keyId, enabled: true });
    expect((await unkey.keys.verifyKey({ key })).data.valid).toBe(true);
  });

  test('ratelimits, roles and permissions replace the whole list; a limit keeps its id when its name stays', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-update-lists' })).data;
    await unkey.permissions.createRole({ name: 'sdk-admin', permissions: ['admin.all'] });
    await unkey.permissions.createRole({ name: 'sdk-viewer', permissions: ['view.all'] });
    const { keyId } = (await unkey.keys.createKey({
      apiId, roles: ['sdk-admin'], permissions: ['p.one', 'p.two'],
      ratelimits: [{ name: 'keep', limit: 1, duration: 1000 }, { name: 'drop', limit: 2, duration: 2000 }],
    })).data;
    const keptId = (await unkey.keys.getKey({ keyId })).data.ratelimits!.find((r) => r.name === 'keep')!.id;

    await unkey.keys.updateKey({
      keyId, roles: ['sdk-viewer'], permissions: ['p.three'],
      ratelimits: [{ name: 'keep', limit: 10, duration: 60_000, autoApply: true }, { name: 'new', limit: 3, duration: 3000 }],
    });
    const updated = (await unkey.keys.getKey({ keyId })).data;
    expect(updated.roles).toEqual(['sdk-viewer']);
    expect([...updated.permissions!].sort()).toEqual(['p.three', 'view.all']);
    expect(updated.ratelimits).toHaveLength(2);
    expect(updated.ratelimits).toContainEqual({ id: keptId, name: 'keep', limit: 10, duration: 60_000, autoApply: true });
    expect(updated.ratelimits!.find((r) => r.name === 'new')).toMatchObject({ limit: 3, duration: 3000, autoApply: false });
    // The new slug exists as a permission now.
    expect((await unkey.permissions.getPermission({ permission: 'p.three' })).data.slug).toBe('p.three');

    // The kept limit keeps its counter: what was spent before the update still counts.
    await waitForWindowRoom(MINUTE, 5_000);
    const { key: plaintext } = (await unkey.keys.createKey({ apiId, ratelimits: [{ name: 'calls', limit: 2, duration: MINUTE, autoApply: true }] })).data;
    const counted = (await unkey.keys.whoami({ key: plaintext })).data.keyId;
    expect((await unkey.keys.verifyKey({ key: plaintext })).data.ratelimits![0]).toMatchObject({ name: 'calls', remaining: 1 });
    await unkey.keys.updateKey({ keyId: counted, ratelimits: [{ name: 'calls', limit: 3, duration: MINUTE, autoApply: true }] });
    expect((await unkey.keys.verifyKey({ key: plaintext })).data.ratelimits![0]).toMatchObject({ name: 'calls', limit: 3, remaining: 1 });

    await unkey.keys.updateKey({ keyId, roles: [], permissions: [], ratelimits: [] });
    const emptied = (await unkey.keys.getKey({ keyId })).data;
    for (const field of ['roles', 'permissions', 'ratelimits'] as const) expect(emptied).not.toHaveProperty(field);
  });

  test('errors: unknown role (nothing changes), unknown key, 403 naming update_key, refillDay on a daily refill', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-update-errors' })).data;
    const { keyId } = (await unkey.keys.createKey({ apiId, name: 'stays' })).data;

    const noRole = await rejection(unkey.keys.updateKey({ keyId, name: 'changed', roles: ['no-such-role'] }));
    expect(noRole).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(noRole)).toMatchObject({ type: `${DOCS}/unkey/data/role_not_found`, detail: "Role 'no-such-role' was not found." });
    expect((await unkey.keys.getKey({ keyId })).data.name).toBe('stays');

    const missing = await rejection(unkey.keys.updateKey({ keyId: 'key_00000000', name: 'x' }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing).type).toBe(`${DOCS}/unkey/data/key_not_found`);

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_key'])).keys.updateKey({ keyId, name: 'x' }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain('api.*.update_key');

    const daily = await rejection(unkey.keys.updateKey({ keyId, credits: { remaining: 1, refill: { interval: 'daily', amount: 5, refillDay: 2 } } }));
    expect(daily).toBeInstanceOf(errors.BadRequestErrorResponse);
    const monthly = await rejection(unkey.keys.updateKey({ keyId, credits: { remaining: 1, refill: { interval: 'monthly', amount: 5 } } }));
    expect(monthly).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('credits');
  });
});

describe('the official SDK against keygate: keys.updateCredits', () => {
  const h = useHarness();

  test('set, increment, decrement (never below 0); set without a value makes the key unlimited', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-credits' })).data;
    const { keyId, key } = (await unkey.keys.createKey({ apiId, credits: { remaining: 1, refill: { interval: 'daily', amount: 50 } } })).data;

    expect((await unkey.keys.updateCredits({ keyId, operation: 'set', value: 10 })).data).toEqual({ remaining: 10, refill: { interval: 'daily', amount: 50 } });
    expect((await unkey.keys.updateCredits({ keyId, operation: 'increment', value: 5 })).data.remaining).toBe(15);
    expect((await unkey.keys.verifyKey({ key })).data.credits).toBe(14);
    expect((await unkey.keys.updateCredits({ keyId, operation: 'decrement', value: 4 })).data.remaining).toBe(10);
    expect((await unkey.keys.updateCredits({ keyId, operation: 'decrement', value: 25 })).data.remaining).toBe(0);
    expect((await unkey.keys.verifyKey({ key })).data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED', credits: 0 });

    expect((await unkey.keys.updateCredits({ keyId, operation: 'set' })).data).toEqual({ remaining: null });
    expect((await unkey.keys.getKey({ keyId })).data).not.toHaveProperty('credits');
    expect((await unkey.keys.verifyKey({ key })).data).toMatchObject({ valid: true, code: 'VALID' });

    expect((await unkey.keys.updateCredits({ keyId, operation: 'set', value: 3 })).data).toEqual({ remaining: 3 });
    expect((await unkey.keys.updateCredits({ keyId, operation: 'set', value: null })).data).toEqual({ remaining: null });
  });

  test('errors: increment without a value or on an unlimited key (400), unknown key (404), 403 naming update_key', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-credits-errors' })).data;
    const limited = (await unkey.keys.createKey({ apiId, credits: { remaining: 4 } })).data.keyId;
    const unlimited = (await unkey.keys.createKey({ apiId })).data.keyId;

    const noValue = await rejection(unkey.keys.updateCredits({ keyId: limited, operation: 'increment' }));
    expect(noValue).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(errorOf(noValue).detail).toBe('When specifying an increment or decrement operation, a value must be provided.');
    const onUnlimited = await rejection(unkey.keys.updateCredits({ keyId: unlimited, operation: 'decrement', value: 1 }));
    expect(onUnlimited).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(errorOf(onUnlimited).detail).toBe('You cannot increment or decrement a key with unlimited credits.');
    expect(await rejection(unkey.keys.updateCredits({ keyId: limited, operation: 'set', value: -1 }))).toBeInstanceOf(errors.BadRequestErrorResponse);

    const missing = await rejection(unkey.keys.updateCredits({ keyId: 'key_00000000', operation: 'set', value: 1 }));
    expect(missing).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect(errorOf(missing).type).toBe(`${DOCS}/unkey/data/key_not_found`);

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_key'])).keys.updateCredits({ keyId: limited, operation: 'set', value: 100 }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect(errorOf(forbidden).detail).toContain(`api.${apiId}.update_key`);
    expect((await unkey.keys.getKey({ keyId: limited })).data.credits).toEqual({ remaining: 4 });
  });
});
