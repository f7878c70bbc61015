import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.getIdentity → 404', () => {
  const h = useHarness();

  test('an unknown id or externalId → 404 identity_not_found', async () => {
    for (const identity of ['id_doesnotexist000', 'nobody', 'x'.repeat(300)]) {
      const res = await h.call('identities.getIdentity', { identity });
      expectError(res, 404, 'unkey/data/identity_not_found');
      expect(res.body.error.title).toBe('Not Found');
      expect(res.body.error.detail).toBe('This identity does not exist.');
    }
  });

  test('the lookup comes before authorization: without any permission, unknown is still 404', async () => {
    const key = await h.rootKey(['api.*.read_api']);
    expectError(await h.call('identities.getIdentity', { identity: 'nobody' }, { rootKey: key }), 404, 'unkey/data/identity_not_found');
  });

  test('externalIds are case-sensitive', async () => {
    await h.createIdentity({ externalId: 'CaseSensitive' });
    expect((await h.call('identities.getIdentity', { identity: 'CaseSensitive' })).status).toBe(200);
    expectError(await h.call('identities.getIdentity', { identity: 'casesensitive' }), 404, 'unkey/data/identity_not_found');
  });

  test('a deleted identity → 404, by id and by externalId', async () => {
    const identityId = await h.createIdentity({ externalId: 'deleted-one' });
    expect((await h.call('identities.deleteIdentity', { identity: identityId })).status).toBe(200);
    expectError(await h.call('identities.getIdentity', { identity: identityId }), 404, 'unkey/data/identity_not_found');
    expectError(await h.call('identities.getIdentity', { identity: 'deleted-one' }), 404, 'unkey/data/identity_not_found');
  });
});
