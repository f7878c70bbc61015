import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.createKey → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.createKey', async () => ({ apiId: await h.createApi() }));
});
