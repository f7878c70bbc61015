import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.whoami → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.whoami', async () => ({ key: (await h.createKey({ apiId: await h.createApi() })).key }));
});
