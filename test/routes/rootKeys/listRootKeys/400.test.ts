import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.listRootKeys → 400', () => {
  const h = useHarness();

  test('an unknown property is rejected', async () => {
    const res = await h.call('rootKeys.listRootKeys', { limit: 10 });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors[0].location).toBe('/additionalProperties');
  });
});
