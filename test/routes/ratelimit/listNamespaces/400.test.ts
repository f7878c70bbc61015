import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.listNamespaces → 400', () => {
  const h = useHarness();

  test.each([
    ['a limit of 0', { limit: 0 }, '/properties/limit/minimum'],
    ['a search of 257 characters', { search: 'a'.repeat(257) }, '/properties/search/maxLength'],
    ['an unknown property', { namespace: 'sms' }, '/additionalProperties'],
  ])('%s is rejected', async (_name, body, location) => {
    const res = await h.call('ratelimit.listNamespaces', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });
});
