import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.getApi → 401', () => {
  const h = useHarness();
  let apiId: string | undefined;
  describeUnauthorizedCases(h, 'apis.getApi', async () => {
    apiId ??= await h.createApi('guarded');
    return { apiId };
  });
});
