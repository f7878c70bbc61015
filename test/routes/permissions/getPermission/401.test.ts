import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.getPermission → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'permissions.getPermission', () => ({ permission: 'documents.read' }));
});
