import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.verifyKey → 400', () => {
  const h = useHarness();

  test('a missing key is named in errors[]', async () => {
    const res = await h.call('keys.verifyKey', {});
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors).toContainEqual(expect.objectContaining({ location: '/required', message: 'key is required' }));
  });

  test('each offending field is reported, with a fix for unknown ones', async () => {
    const res = await h.call('keys.verifyKey', { key: '', credits: { cost: -1 }, colour: 'red' });
    expectError(res, 400, 'unkey/application/invalid_input');
    const messages = res.body.error.errors.map((e: any) => e.message);
    expect(messages).toContain('key must be at least 1 characters long');
    expect(messages).toContain('credits.cost must be >= 0');
    expect(res.body.error.errors).toContainEqual({
      location: '/additionalProperties', message: 'colour is not a known property', fix: expect.stringContaining("Remove 'colour'"),
    });
  });

  test('an inline limit with a duration under 1000 ms is rejected rather than ignored', async () => {
    const res = await h.call('keys.verifyKey', { key: 'x', ratelimits: [{ name: 'burst', limit: 1, duration: 10 }] });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors[0]).toMatchObject({ location: '/properties/ratelimits/items/properties/duration/minimum' });
  });

  test('a permissions query that does not parse → 400 permissions_query_syntax_error', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), permissions: ['a'] });
    for (const query of ['a AND', '(a', 'AND a', 'a $ b', '()']) {
      const res = await h.verify(key, { permissions: query });
      expectError(res, 400, 'user/bad_request/permissions_query_syntax_error');
      expect(res.body.error.detail.length).toBeGreaterThan(0);
      expect(res.body.error.errors).toEqual([]);
    }
  });

  test('a bad permissions query on an unknown key is NOT_FOUND, not 400 (existence first)', async () => {
    const res = await h.verify('unknown_key_123', { permissions: 'a AND' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });
  });

  test('validation runs before authentication: a bad body with a bad root key is a 400', async () => {
    const res = await h.call('keys.verifyKey', { nokey: true }, { rootKey: 'kgroot_wrong' });
    expect(res.status).toBe(400);
  });
});
