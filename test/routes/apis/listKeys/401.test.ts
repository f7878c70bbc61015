import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listKeys → 401', () => {
  const h = useHarness();
  let apiId: string | undefined;
  describeUnauthorizedCases(h, 'apis.listKeys', async () => {
    if (apiId === undefined) {
      apiId = await h.createApi('guarded');
      await h.createKey({ apiId });
    }
    return { apiId };
  });
});
