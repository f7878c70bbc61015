import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.multiLimit → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'ratelimit.multiLimit', () => [{ namespace: 'guarded', identifier: 'user_1', limit: 1000, duration: 60_000 }]);
});
