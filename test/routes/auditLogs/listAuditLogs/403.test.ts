import { describe, expect, test } from 'vitest';
import { ALL_PERMISSIONS } from '../../../../src/auth/permissions.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('auditLogs.listAuditLogs → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'auditLogs.listAuditLogs', () => ({}), 'audit_log.*.read_audit_log', ['api.*.read_api']);

  test('every other permission together does not read the log', async () => {
    await h.createApi('secretive');
    const key = await h.rootKey(ALL_PERMISSIONS.filter((p) => p !== 'audit_log.*.read_audit_log'));
    const res = await h.call('auditLogs.listAuditLogs', {}, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe("Missing permission: 'audit_log.*.read_audit_log'.");
  });

  test('the permission is granted like the others, through rootKeys.createRootKey', async () => {
    const created = await h.call('rootKeys.createRootKey', { name: 'auditor', permissions: ['audit_log.*.read_audit_log'] });
    expect(created.status).toBe(200);
    expect((await h.call('auditLogs.listAuditLogs', {}, { rootKey: created.body.data.key })).status).toBe(200);
    const scoped = await h.call('rootKeys.createRootKey', { permissions: ['audit_log.api_1.read_audit_log'] });
    expectError(scoped, 400, 'unkey/application/invalid_input');
  });
});
