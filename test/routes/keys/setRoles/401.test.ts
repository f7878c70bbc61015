import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setRoles → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.setRoles', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, roles: ['admin'] }));
});
