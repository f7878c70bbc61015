import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('identities.listIdentities → 401', () => {
  const h = useHarness();
  let created = false;
  describeUnauthorizedCases(h, 'identities.listIdentities', async () => {
    if (!created) {
      await h.createIdentity({ externalId: 'guarded' });
      created = true;
    }
    return {};
  });
});
