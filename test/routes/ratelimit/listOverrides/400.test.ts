import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/ratelimit.listOverrides' failed to validate schema";

describe('ratelimit.listOverrides → 400', () => {
  const h = useHarness();
  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('namespace is required and not empty', async () => {
    expectInvalid(await h.call('ratelimit.listOverrides', {}), '/required');
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: '' }), '/properties/namespace/minLength');
  });

  test('limit must be 1..100', async () => {
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', limit: 0 }), '/properties/limit/minimum');
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', limit: 101 }), '/properties/limit/maximum');
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', limit: 2.5 }), '/properties/limit/type');
  });

  test('cursor must be a string of at most 1024 characters', async () => {
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', cursor: 5 }), '/properties/cursor/type');
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', cursor: 'c'.repeat(1025) }), '/properties/cursor/maxLength');
  });

  test('unknown properties are rejected', async () => {
    expectInvalid(await h.call('ratelimit.listOverrides', { namespace: 'ns', search: 'x' }), '/additionalProperties');
  });
});
