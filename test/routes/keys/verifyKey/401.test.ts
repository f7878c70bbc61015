import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.verifyKey → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'keys.verifyKey', () => ({ key: 'sk_anything' }));
});
