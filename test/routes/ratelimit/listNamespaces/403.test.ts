import { describe } from 'vitest';
import { describeForbiddenCase } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('ratelimit.listNamespaces → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'ratelimit.listNamespaces', () => ({}), 'ratelimit.*.read_namespace', ['ratelimit.*.limit', 'ratelimit.*.read_override']);
});
