import { describe, expect, test } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.updateIdentity → 401', () => {
  const h = useHarness();
  let created = false;
  describeUnauthorizedCases(h, 'identities.updateIdentity', async () => {
    if (!created) {
      await h.createIdentity({ externalId: 'guarded' });
      created = true;
    }
    return { identity: 'guarded', meta: { touched: true } };
  });

  test('an unauthenticated call changes nothing', async () => {
    const identityId = await h.createIdentity({ externalId: 'untouched', meta: { a: 1 } });
    expect((await h.call('identities.updateIdentity', { identity: identityId, meta: { a: 2 } }, { rootKey: null })).status).toBe(401);
    expect((await h.keygate.services.storage.identities.get(identityId))?.meta).toEqual({ a: 1 });
  });
});
