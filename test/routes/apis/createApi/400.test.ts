import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';
import { expectError } from '../../../support/auth-cases.js';

const DETAIL = "POST request body for '/v2/apis.createApi' failed to validate schema";

describe('apis.createApi → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(Array.isArray(res.body.error.errors)).toBe(true);
    expect(res.body.error.errors.length).toBeGreaterThan(0);
  };

  test('a name of 2 characters is rejected at /properties/name/minLength', async () => {
    const res = await h.call('apis.createApi', { name: 'ab' });
    expectInvalid(res);
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors[0].location).toBe('/properties/name/minLength');
    expect(res.body.error.errors[0].message).toContain('name');
  });

  test('a name of exactly 3 characters is accepted (boundary)', async () => {
    const res = await h.call('apis.createApi', { name: 'abc' });
    expect(res.status).toBe(200);
  });

  test('a name of 257 characters is rejected at /properties/name/maxLength; 256 is accepted', async () => {
    const tooLong = await h.call('apis.createApi', { name: 'a'.repeat(257) });
    expectInvalid(tooLong);
    expect(tooLong.body.error.errors.map((e: any) => e.location)).toContain('/properties/name/maxLength');
    const longest = await h.call('apis.createApi', { name: 'a'.repeat(256) });
    expect(longest.status).toBe(200);
  });

  test('a missing name is rejected and the issue names the property', async () => {
    const res = await h.call('apis.createApi', {});
    expectInvalid(res);
    expect(res.body.error.detail).toBe(DETAIL);
    const issue = res.body.error.errors.find((e: any) => e.location === '/required');
    expect(issue).toBeDefined();
    expect(issue.message).toContain('name');
    expect(typeof issue.fix).toBe('string');
  });

  test('a name that is not a string is rejected at /properties/name/type', async () => {
    const res = await h.call('apis.createApi', { name: 12345 });
    expectInvalid(res);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain('/properties/name/type');
  });

  test('an unknown property is rejected and named', async () => {
    const res = await h.call('apis.createApi', { name: 'payments', deleteProtection: true });
    expectInvalid(res);
    const issue = res.body.error.errors.find((e: any) => e.location === '/additionalProperties');
    expect(issue).toBeDefined();
    expect(issue.message).toContain('deleteProtection');
    expect(issue.fix).toContain('deleteProtection');
  });

  test('a body that is a JSON array, not an object, is rejected', async () => {
    const res = await h.call('apis.createApi', [{ name: 'payments' }]);
    expectInvalid(res);
  });

  test('validation runs before authentication: a bad body without a root key is a 400, not a 401', async () => {
    const res = await h.call('apis.createApi', { name: 'ab' }, { rootKey: null });
    expectInvalid(res);
  });
});
