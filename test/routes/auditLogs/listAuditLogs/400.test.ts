import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/auditLogs.listAuditLogs' failed to validate schema";

describe('auditLogs.listAuditLogs → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('limit 0 and 101 are rejected; 1 and 100 are accepted', async () => {
    expectInvalid(await h.call('auditLogs.listAuditLogs', { limit: 0 }), '/properties/limit/minimum');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { limit: 101 }), '/properties/limit/maximum');
    expect((await h.call('auditLogs.listAuditLogs', { limit: 1 })).status).toBe(200);
    expect((await h.call('auditLogs.listAuditLogs', { limit: 100 })).status).toBe(200);
  });

  test('a cursor that is not an event id is rejected; one from a page is accepted', async () => {
    expectInvalid(await h.call('auditLogs.listAuditLogs', { cursor: 'api_123' }), '/properties/cursor/pattern');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { cursor: `evt_${'0'.repeat(9)}${'x'.repeat(40)}` }), '/properties/cursor/pattern');
    for (let i = 0; i < 3; i++) await h.createApi(`paged-${i}`);
    const first = await h.call('auditLogs.listAuditLogs', { limit: 1 });
    expect(first.body.pagination.hasMore).toBe(true);
    expect((await h.call('auditLogs.listAuditLogs', { limit: 1, cursor: first.body.pagination.cursor })).status).toBe(200);
  });

  test('times must be whole non-negative milliseconds, and the start before the end', async () => {
    expectInvalid(await h.call('auditLogs.listAuditLogs', { startTime: -1 }), '/properties/startTime/minimum');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { endTime: 1.5 }), '/properties/endTime/type');
    const res = await h.call('auditLogs.listAuditLogs', { startTime: 2_000, endTime: 2_000 });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe('`startTime` must be before `endTime`.');
  });

  test('empty or overlong filters and unknown properties are rejected', async () => {
    expectInvalid(await h.call('auditLogs.listAuditLogs', { actor: '' }), '/properties/actor/minLength');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { targetId: 't'.repeat(256) }), '/properties/targetId/maxLength');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { procedure: 5 }), '/properties/procedure/type');
    expectInvalid(await h.call('auditLogs.listAuditLogs', { page: 2 }), '/additionalProperties');
  });
});
