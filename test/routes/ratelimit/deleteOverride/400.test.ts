import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/ratelimit.deleteOverride' failed to validate schema";

describe('ratelimit.deleteOverride → 400', () => {
  const h = useHarness();
  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('namespace and identifier are required', async () => {
    expectInvalid(await h.call('ratelimit.deleteOverride', { namespace: 'ns' }), '/required');
    expectInvalid(await h.call('ratelimit.deleteOverride', { identifier: 'u' }), '/required');
  });

  test('empty and over-long values are rejected', async () => {
    expectInvalid(await h.call('ratelimit.deleteOverride', { namespace: 'ns', identifier: '' }), '/properties/identifier/minLength');
    expectInvalid(await h.call('ratelimit.deleteOverride', { namespace: 'n'.repeat(513), identifier: 'u' }), '/properties/namespace/maxLength');
  });

  test('unknown properties (such as an overrideId) are rejected', async () => {
    expectInvalid(await h.call('ratelimit.deleteOverride', { namespace: 'ns', identifier: 'u', overrideId: 'rlor_1' }), '/additionalProperties');
  });
});
