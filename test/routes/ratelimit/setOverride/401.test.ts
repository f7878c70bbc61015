import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.setOverride → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'ratelimit.setOverride', () => ({ namespace: 'guarded', identifier: 'user_1', limit: 10, duration: 60_000 }));
});
