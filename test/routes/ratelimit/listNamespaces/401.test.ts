import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.listNamespaces → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'ratelimit.listNamespaces', () => ({}));
});
