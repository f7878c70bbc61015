import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_WAITING } from '../../../../src/analytics/query-thread.js';
import { expectError } from '../../../support/auth-cases.js';
import { startHarness, type Harness } from '../../../support/harness.js';

describe('analytics.getVerifications → 429', () => {
  let h: Harness & { stop(): Promise<void> };

  beforeAll(async () => {
    h = await startHarness();
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    const now = Date.now();
    for (let i = 0; i < 40_000; i++) {
      h.keygate.services.recorder.record({ time: now - 1_000 - i, requestId: `req_busy${i}`, apiId, keyId, outcome: 'VALID', spentCredits: 0, latency: 1 });
    }
    await h.keygate.services.recorder.flush();
  }, 120_000);
  afterAll(async () => { await h?.stop(); });

  test('queries run one at a time with a few waiting; beyond that, query_quota_exceeded at once', async () => {
    const heavy = `SELECT count(*) AS n FROM key_verifications_v1 WHERE ${Array.from({ length: 400 }, () => 'latency').join(' + ')} >= 0`;
    const answers = await Promise.all(Array.from({ length: MAX_WAITING + 3 }, () => h.call('analytics.getVerifications', { query: heavy })));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of refused) {
      expectError(res, 429, 'user/too_many_requests/query_quota_exceeded');
      expect(res.body.error.detail).toMatch(/one at a time/);
    }
    for (const res of answers.filter((r) => r.status !== 429)) expect([200, 422]).toContain(res.status);
    // Once the queue drains, queries are taken again.
    expect((await h.call('analytics.getVerifications', { query: 'SELECT count(*) AS n FROM key_verifications_v1' })).status).toBe(200);
  }, 120_000);
});
