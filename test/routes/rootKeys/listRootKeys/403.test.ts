import { describe } from 'vitest';
import { describeForbiddenCase } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.listRootKeys → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'rootKeys.listRootKeys', () => ({}), 'root_key.*.read_root_key', ['root_key.*.create_root_key', 'root_key.*.revoke_root_key']);
});
