import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.revokeRootKey → 404', () => {
  const h = useHarness();

  test('an unknown id', async () => {
    const res = await h.call('rootKeys.revokeRootKey', { rootKeyId: 'rk_doesnotexist' });
    expectError(res, 404, 'keygate/data/root_key_not_found');
    expect(res.body.error.detail).toBe('The specified root key was not found.');
  });
});
