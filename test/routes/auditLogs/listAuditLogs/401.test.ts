import { describe } from 'vitest';
import { describeUnauthorizedCases } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('auditLogs.listAuditLogs → 401', () => {
  const h = useHarness();
  describeUnauthorizedCases(h, 'auditLogs.listAuditLogs', async () => {
    await h.createApi('an audited change');
    return {};
  });
});
