import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.createKey → 412', () => {
  const h = useHarness();

  test('recoverable keys are refused: keygate never stores a plaintext key', async () => {
    const res = await h.call('keys.createKey', { apiId: await h.createApi(), recoverable: true });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.detail).toMatch(/does not support key encryption/);
  });
});
