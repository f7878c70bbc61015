import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.listRootKeys → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'rootKeys.listRootKeys', () => ({}));
});
