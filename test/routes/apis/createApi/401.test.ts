import { describe, expect, test } from 'vitest';
import { describeUnauthorizedCases, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.createApi → 401', () => {
  const h = useHarness();

  describeUnauthorizedCases(h, 'apis.createApi', () => ({ name: 'payments' }));

  test('the missing-header detail tells the caller how to authenticate', async () => {
    const res = await h.call('apis.createApi', { name: 'payments' }, { rootKey: null });
    expectError(res, 401, 'unauthorized');
    expect(res.body.error.detail).toContain('Authorization');
    expect(res.body.error.detail).toContain('Bearer');
  });

  test('a root key sent without the Bearer scheme is rejected', async () => {
    const res = await h.call('apis.createApi', { name: 'payments' }, { rootKey: null, headers: { authorization: h.adminKey } });
    expectError(res, 401, 'unauthorized');
    expect(res.body.error.detail).toMatch(/invalid or revoked/);
  });
});
