import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.rerollKey → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.rerollKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, expiration: 60_000 }));
});
