import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listApis → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'apis.listApis', () => ({}));
});
