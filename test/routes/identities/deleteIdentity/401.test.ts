import { describe, expect, test } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.deleteIdentity → 401', () => {
  const h = useHarness();
  let n = 0;
  // A fresh identity per call: the revoked-key case first calls with a valid key.
  describeUnauthorizedCases(h, 'identities.deleteIdentity', async () => ({ identity: await h.createIdentity({ externalId: `guarded-${n++}` }) }));

  test('an unauthenticated call deletes nothing', async () => {
    const identityId = await h.createIdentity({ externalId: 'kept' });
    expect((await h.call('identities.deleteIdentity', { identity: identityId }, { rootKey: null })).status).toBe(401);
    expect(await h.keygate.services.storage.identities.get(identityId)).not.toBeNull();
  });
});
