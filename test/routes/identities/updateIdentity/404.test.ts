import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.updateIdentity → 404', () => {
  const h = useHarness();

  test('an unknown id or externalId → 404 identity_not_found', async () => {
    for (const identity of ['id_doesnotexist000', 'nobody']) {
      const res = await h.call('identities.updateIdentity', { identity, meta: { a: 1 } });
      expectError(res, 404, 'unkey/data/identity_not_found');
      expect(res.body.error.title).toBe('Not Found');
      expect(res.body.error.detail).toBe('This identity does not exist.');
    }
  });

  test('an update does not create the identity', async () => {
    expectError(await h.call('identities.updateIdentity', { identity: 'not-upserted', meta: { a: 1 } }), 404, 'unkey/data/identity_not_found');
    expectError(await h.call('identities.getIdentity', { identity: 'not-upserted' }), 404, 'unkey/data/identity_not_found');
  });

  test('a deleted identity → 404, and the update does not bring it back', async () => {
    const identityId = await h.createIdentity({ externalId: 'gone' });
    expect((await h.call('identities.deleteIdentity', { identity: identityId })).status).toBe(200);
    expectError(await h.call('identities.updateIdentity', { identity: identityId, meta: { a: 1 } }), 404, 'unkey/data/identity_not_found');
    expectError(await h.call('identities.updateIdentity', { identity: 'gone', meta: { a: 1 } }), 404, 'unkey/data/identity_not_found');
    expect(await h.keygate.services.storage.identities.get(identityId)).toBeNull();
  });
});
