import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createRole → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'permissions.createRole', () => ({ name: 'editor' }));
});
