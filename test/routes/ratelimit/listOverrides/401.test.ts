import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.listOverrides → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'ratelimit.listOverrides', () => ({ namespace: 'guarded' }));
});
