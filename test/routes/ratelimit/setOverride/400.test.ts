import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/ratelimit.setOverride' failed to validate schema";
const VALID = { namespace: 'api.requests', identifier: 'user_1', limit: 10, duration: 60_000 };

describe('ratelimit.setOverride → 400', () => {
  const h = useHarness();
  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  for (const field of ['namespace', 'identifier', 'limit', 'duration'] as const) {
    test(`a missing ${field} is rejected`, async () => {
      const { [field]: _omitted, ...body } = VALID;
      const res = await h.call('ratelimit.setOverride', body);
      expectInvalid(res, '/required');
      expect(res.body.error.errors.find((e: any) => e.location === '/required').message).toContain(field);
    });
  }

  test('a negative limit is rejected (0 is allowed)', async () => {
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, limit: -1 }), '/properties/limit/minimum');
  });

  test('a duration below 1000 ms is rejected', async () => {
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, duration: 999 }), '/properties/duration/minimum');
  });

  test('empty or over-long namespace and identifier are rejected', async () => {
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, namespace: '' }), '/properties/namespace/minLength');
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, identifier: '' }), '/properties/identifier/minLength');
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, identifier: 'i'.repeat(513) }), '/properties/identifier/maxLength');
  });

  test('non-integer values and unknown properties are rejected', async () => {
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, limit: '5' }), '/properties/limit/type');
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, duration: 1500.5 }), '/properties/duration/type');
    expectInvalid(await h.call('ratelimit.setOverride', { ...VALID, async: true }), '/additionalProperties');
  });

  test('validation comes before authentication', async () => {
    const res = await h.call('ratelimit.setOverride', { ...VALID, limit: -1 }, { rootKey: 'kgroot_unknown0000000000000000' });
    expect(res.status).toBe(400);
  });
});
