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

describe('auditLogs.listAuditLogs → 200, filters', () => {
  const h = useHarness();

  test('time range, actor, target and procedure narrow the list; a filter that matches nothing is an empty page', async () => {
    const a = await h.createApi('first');
    // startTime is inclusive: taken in the millisecond of a's event, it would match that event too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const startTime = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = await h.createApi('second');
    await h.call('apis.deleteApi', { apiId: a });
    const names = async (body: Record<string, unknown>): Promise<string[]> => {
      const res = await h.call('auditLogs.listAuditLogs', body);
      expect(res.status).toBe(200);
      return res.body.data.map((e: any) => `${e.procedure} ${e.targets[0].id}`);
    };
    expect(await names({ startTime })).toEqual([`apis.deleteApi ${a}`, `apis.createApi ${b}`]);
    expect(await names({ endTime: startTime })).toEqual([`apis.createApi ${a}`]);
    expect(await names({ targetId: a })).toEqual([`apis.deleteApi ${a}`, `apis.createApi ${a}`]);
    expect(await names({ procedure: 'apis.createApi' })).toEqual([`apis.createApi ${b}`, `apis.createApi ${a}`]);
    const [latest] = (await h.call('auditLogs.listAuditLogs', { limit: 1 })).body.data;
    expect(await names({ actor: latest.actor.id, targetId: b })).toEqual([`apis.createApi ${b}`]);
    expect(await names({ actor: 'rk_nobody' })).toEqual([]);
  });
});
