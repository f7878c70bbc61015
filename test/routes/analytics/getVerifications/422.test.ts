import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness, type Harness } from '../../../support/harness.js';

const record = (i: number) => ({ time: Date.now() - 60_000 - i, requestId: `req_${i}`, apiId: 'api_x', keyId: 'key_x', outcome: 'VALID', spentCredits: 0 });
const seed = (h: Harness, n: number) => h.keygate.services.storage.verifications.append(Array.from({ length: n }, (_, i) => record(i)));

describe('analytics.getVerifications → 422 query_rows_limit_exceeded', () => {
  const h = useHarness({ analyticsMaxRowsRead: 3_000 });

  test('a query that would read more rows than ANALYTICS_MAX_ROWS_READ', async () => {
    await seed(h, 3_001);
    const res = await h.call('analytics.getVerifications', { query: 'SELECT count(*) FROM key_verifications_v1' });
    expectError(res, 422, 'user/unprocessable_entity/query_rows_limit_exceeded');
    expect(res.body.error.title).toBe('Unprocessable Entity');
    expect(res.body.error.detail).toContain('more than 3000 rows');
    // The same data through a rollup is one row per bucket: well within the limit.
    const rollup = await h.call('analytics.getVerifications', { query: 'SELECT sum(count) AS n FROM key_verifications_per_month_v1' });
    expect(rollup.status).toBe(200);
    expect(rollup.body.data).toEqual([{ n: 3_001 }]);
  });
});

describe('analytics.getVerifications → 422 query_execution_timeout', () => {
  const h = useHarness({ analyticsQueryTimeoutMs: 0 });

  test('a query still running after ANALYTICS_QUERY_TIMEOUT_MS (checked between pages)', async () => {
    await seed(h, 4_500);
    const res = await h.call('analytics.getVerifications', { query: "SELECT count(*) FROM key_verifications_v1 WHERE outcome = 'VALID'" });
    expectError(res, 422, 'user/unprocessable_entity/query_execution_timeout');
    expect(res.body.error.detail).toContain('ANALYTICS_QUERY_TIMEOUT_MS');
  });
});
