import { describe } from 'vitest';
import { describeForbiddenCase } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listApis → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'apis.listApis', () => ({}), 'api.*.read_api', ['api.*.create_api', 'api.*.read_key']);
});
