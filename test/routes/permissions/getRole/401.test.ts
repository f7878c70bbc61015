import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getRole → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'permissions.getRole', () => ({ role: 'editor' }));
});
