import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { MAX_WILDCARD_OVERRIDES } from '../../../../src/ratelimit/overrides.js';

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

  test(`a namespace holds at most ${MAX_WILDCARD_OVERRIDES} wildcard overrides; replacing or deleting one still works`, async () => {
    const namespace = 'wildcard.cap';
    await h.call('ratelimit.limit', { namespace, identifier: 'seed', limit: 1, duration: 60_000 });
    // Patterns a naive matcher would backtrack on, at the longest identifier allowed.
    const pattern = (i: number) => `${'*a'.repeat(200)}*${i}`;
    for (let i = 0; i < MAX_WILDCARD_OVERRIDES; i++) {
      expect((await h.call('ratelimit.setOverride', { namespace, identifier: pattern(i), limit: 5, duration: 60_000 })).status).toBe(200);
    }
    const over = await h.call('ratelimit.setOverride', { namespace, identifier: pattern(MAX_WILDCARD_OVERRIDES), limit: 5, duration: 60_000 });
    expectError(over, 400, 'unkey/application/invalid_input');
    expect(over.body.error.detail).toContain(`${MAX_WILDCARD_OVERRIDES} wildcard overrides`);
    expect(over.body.error.errors[0].location).toBe('/properties/identifier');
    // Exact identifiers are not capped; an existing pattern can be changed.
    expect((await h.call('ratelimit.setOverride', { namespace, identifier: 'exact_user', limit: 5, duration: 60_000 })).status).toBe(200);
    expect((await h.call('ratelimit.setOverride', { namespace, identifier: pattern(0), limit: 7, duration: 60_000 })).status).toBe(200);
    // Every check in the namespace matches against all of them, and still answers at once.
    const checked = await h.call('ratelimit.limit', { namespace, identifier: `${'a'.repeat(511)}7`, limit: 1, duration: 60_000 });
    expect(checked.status).toBe(200);
    expect(checked.body.data.overrideId).toEqual(expect.stringMatching(/^rlor_/));
    // Deleting one frees its place.
    expect((await h.call('ratelimit.deleteOverride', { namespace, identifier: pattern(1) })).status).toBe(200);
    expect((await h.call('ratelimit.setOverride', { namespace, identifier: pattern(MAX_WILDCARD_OVERRIDES), limit: 5, duration: 60_000 })).status).toBe(200);
  }, 60_000);
});
