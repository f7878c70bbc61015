import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.getIdentity → 401', () => {
  const h = useHarness();
  let created = false;
  describeUnauthorizedCases(h, 'identities.getIdentity', async () => {
    if (!created) {
      await h.createIdentity({ externalId: 'guarded' });
      created = true;
    }
    return { identity: 'guarded' };
  });
});
