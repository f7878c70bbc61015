import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateCredits → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.updateCredits', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi(), credits: { remaining: 1 } })).keyId, operation: 'set', value: 5 }));
});
