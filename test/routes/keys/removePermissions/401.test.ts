import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removePermissions → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.removePermissions', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, permissions: ['a.read'] }));
});
