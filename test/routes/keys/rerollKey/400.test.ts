import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.rerollKey → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { expiration: 0 }, '/required'],
    ['expiration missing', { keyId: 'key_123' }, '/required'],
    ['a negative expiration', { keyId: 'key_123', expiration: -1 }, '/properties/expiration/minimum'],
    ['an expiration past the schema maximum', { keyId: 'key_123', expiration: 4102444800001 }, '/properties/expiration/maximum'],
    ['a fractional expiration', { keyId: 'key_123', expiration: 1.5 }, '/properties/expiration/type'],
    ['keyId with a dash', { keyId: 'key-1', expiration: 0 }, '/properties/keyId/pattern'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.rerollKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('a refused request creates nothing and leaves the old key valid', async () => {
    const old = await h.createKey({ apiId: await h.createApi() });
    expectError(await h.call('keys.rerollKey', { keyId: old.keyId, expiration: -5 }), 400, 'unkey/application/invalid_input');
    const data = (await h.verify(old.key)).body.data;
    expect(data.code).toBe('VALID');
    expect(data).not.toHaveProperty('expires');
  });
});
