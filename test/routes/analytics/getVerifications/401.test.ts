import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('analytics.getVerifications → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'analytics.getVerifications', () => ({ query: 'SELECT count(*) FROM key_verifications_v1' }));
});
