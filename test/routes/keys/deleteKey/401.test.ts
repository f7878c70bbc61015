import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.deleteKey → 401', () => {
  const h = useHarness();
  // A fresh key per call: the revoked-key case first proves the admin key is accepted, which deletes it.
  describeUnauthorizedCases(h, 'keys.deleteKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId }));
});
