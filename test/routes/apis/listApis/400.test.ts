import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listApis → 400', () => {
  const h = useHarness();

  test.each([
    ['a limit of 0', { limit: 0 }, '/properties/limit/minimum'],
    ['a limit above 100', { limit: 101 }, '/properties/limit/maximum'],
    ['a cursor of 1025 characters', { cursor: 'a'.repeat(1025) }, '/properties/cursor/maxLength'],
    ['an unknown property', { apiId: 'api_1' }, '/additionalProperties'],
  ])('%s is rejected', async (_name, body, location) => {
    const res = await h.call('apis.listApis', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });
});
