import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.revokeRootKey → 400', () => {
  const h = useHarness();

  test.each([
    ['no rootKeyId', {}, '/required'],
    ['an id with spaces', { rootKeyId: 'rk 1' }, '/properties/rootKeyId/pattern'],
    ['an unknown property', { rootKeyId: 'rk_1', force: true }, '/additionalProperties'],
  ])('%s is rejected by the schema', async (_name, body, location) => {
    const res = await h.call('rootKeys.revokeRootKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });
});
