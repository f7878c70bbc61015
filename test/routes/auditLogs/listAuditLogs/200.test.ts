import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('auditLogs.listAuditLogs → 200', () => {
  const h = useHarness();

  test('a change is listed newest first with its actor, targets, request id and client address', async () => {
    const created = await h.call('apis.createApi', { name: 'audited-api' });
    const apiId = created.body.data.apiId as string;
    const res = await h.call('auditLogs.listAuditLogs', { targetId: apiId });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const [event] = res.body.data;
    expect(event).toMatchObject({
      procedure: 'apis.createApi',
      actor: { type: 'root_key', name: 'test' },
      targets: [{ type: 'api', id: apiId, name: 'audited-api' }],
      requestId: created.headers.get('x-request-id'),
      summary: "created API 'audited-api'",
      changes: { name: 'audited-api' },
    });
    expect(event.clientAddress).toMatch(/127\.0\.0\.1|::1|0000:0000/);
    expect(res.body.pagination).toEqual({ hasMore: false });
  });

  test('pages continue from the cursor, newest first, each event once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await h.call('apis.createApi', { name: `paged-${i}` })).body.data.apiId);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await h.call('auditLogs.listAuditLogs', { procedure: 'apis.createApi', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      for (const e of res.body.data) seen.push(e.targets[0].id);
      if (!res.body.pagination.hasMore) break;
      cursor = res.body.pagination.cursor;
    }
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
    expect(new Set(seen).size).toBe(seen.length);
  });
});
