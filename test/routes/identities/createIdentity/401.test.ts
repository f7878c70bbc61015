import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.createIdentity → 401', () => {
  const h = useHarness();
  let n = 0;
  describeUnauthorizedCases(h, 'identities.createIdentity', () => ({ externalId: `unauth-${n++}` }));

  test('an unauthenticated call creates nothing', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'never-created' }, { rootKey: null });
    expect(res.status).toBe(401);
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'never-created')).toBeNull();
  });
});
