import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.deleteKey → 200', () => {
  const h = useHarness();

  test.each([
    ['by default', {}],
    ['with permanent: true', { permanent: true }],
  ])('%s the key stops verifying at once and is gone from every procedure', async (_name, extra) => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5 } });
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    const res = await h.call('keys.deleteKey', { keyId, ...extra });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({});
    expect((await h.verify(key)).body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expectError(await h.call('keys.getKey', { keyId }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.whoami', { key }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.updateKey', { keyId, enabled: true }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.updateCredits', { keyId, operation: 'increment', value: 1 }), 404, 'unkey/data/key_not_found');
    expectError(await h.call('keys.rerollKey', { keyId, expiration: 0 }), 404, 'unkey/data/key_not_found');
  });

  test('other keys of the API, and the key\'s identity, are untouched', async () => {
    const apiId = await h.createApi();
    const doomed = await h.createKey({ apiId, externalId: 'del_shared' });
    const kept = await h.createKey({ apiId, externalId: 'del_shared' });
    expect((await h.call('keys.deleteKey', { keyId: doomed.keyId })).status).toBe(200);
    expect((await h.verify(kept.key)).body.data).toMatchObject({ code: 'VALID', identity: { externalId: 'del_shared' } });
  });

  test('a root key with api.<apiId>.delete_key deletes keys of that API', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.delete_key`]);
    expect((await h.call('keys.deleteKey', { keyId }, { rootKey: scoped })).status).toBe(200);
    expect((await h.verify(key)).body.data.code).toBe('NOT_FOUND');
  });

  test('two concurrent deletions of one key: one succeeds, the other finds nothing', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const results = await Promise.all([h.call('keys.deleteKey', { keyId }), h.call('keys.deleteKey', { keyId })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 404]);
  });
});
