import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/ratelimit.getOverride' failed to validate schema";

describe('ratelimit.getOverride → 400', () => {
  const h = useHarness();
  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('namespace and identifier are required', async () => {
    expectInvalid(await h.call('ratelimit.getOverride', { namespace: 'ns' }), '/required');
    expectInvalid(await h.call('ratelimit.getOverride', { identifier: 'u' }), '/required');
  });

  test('empty, over-long and non-string values are rejected', async () => {
    expectInvalid(await h.call('ratelimit.getOverride', { namespace: '', identifier: 'u' }), '/properties/namespace/minLength');
    expectInvalid(await h.call('ratelimit.getOverride', { namespace: 'ns', identifier: 'u'.repeat(513) }), '/properties/identifier/maxLength');
    expectInvalid(await h.call('ratelimit.getOverride', { namespace: 'ns', identifier: 42 }), '/properties/identifier/type');
  });

  test('unknown properties are rejected', async () => {
    expectInvalid(await h.call('ratelimit.getOverride', { namespace: 'ns', identifier: 'u', overrideId: 'rlor_1' }), '/additionalProperties');
  });
});
