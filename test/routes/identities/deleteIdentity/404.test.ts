import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.deleteIdentity → 404', () => {
  const h = useHarness();

  test('an unknown id or externalId → 404 identity_not_found', async () => {
    for (const identity of ['id_doesnotexist000', 'nobody', 'y'.repeat(5000)]) {
      const res = await h.call('identities.deleteIdentity', { identity });
      expectError(res, 404, 'unkey/data/identity_not_found');
      expect(res.body.error.title).toBe('Not Found');
      expect(res.body.error.detail).toBe('This identity does not exist.');
    }
  });

  test('deleting twice: the second call → 404', async () => {
    const identityId = await h.createIdentity({ externalId: 'twice' });
    expect((await h.call('identities.deleteIdentity', { identity: identityId })).status).toBe(200);
    expectError(await h.call('identities.deleteIdentity', { identity: identityId }), 404, 'unkey/data/identity_not_found');
    expectError(await h.call('identities.deleteIdentity', { identity: 'twice' }), 404, 'unkey/data/identity_not_found');
  });
});
