import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('analytics.getVerifications → 400', () => {
  const h = useHarness();

  test('a missing or non-string query fails the schema', async () => {
    for (const body of [{}, { query: 7 }, { query: '' }]) {
      const res = await h.call('analytics.getVerifications', body);
      expectError(res, 400, 'unkey/application/invalid_input');
      expect(res.body.error.errors.length).toBeGreaterThan(0);
    }
  });

  test.each([
    ['not a SELECT', 'DELETE FROM key_verifications_v1', 'invalid_analytics_query_type', 'Only SELECT queries are allowed; this is DELETE'],
    ['another table', 'SELECT * FROM keys', 'invalid_analytics_table', "Table 'keys' is not allowed"],
    ['a physical table', 'SELECT * FROM default.key_verifications_raw_v2', 'invalid_analytics_table', "Table 'default.key_verifications_raw_v2' is not allowed"],
    ['a function outside the subset', 'SELECT groupArray(key_id) FROM key_verifications_v1', 'invalid_analytics_function', "Function 'groupArray' is not supported"],
    ['a table function', "SELECT * FROM file('/etc/passwd')", 'invalid_analytics_function', "Table function 'file' is not allowed"],
    ['UNION', 'SELECT key_id FROM key_verifications_v1 UNION ALL SELECT key_id FROM key_verifications_v1', 'invalid_analytics_query', 'UNION is not supported'],
    ['a subquery', 'SELECT count(*) FROM key_verifications_v1 WHERE key_id IN (SELECT key_id FROM key_verifications_v1)', 'invalid_analytics_query', 'IN with a subquery is not supported'],
    ['a syntax error', 'SELECT FROM key_verifications_v1', 'invalid_analytics_query', 'Syntax error'],
    ['an ungrouped column', 'SELECT key_id, count(*) FROM key_verifications_v1', 'invalid_analytics_query', "Column 'key_id' in SELECT must be in GROUP BY"],
    ['a look-back beyond retention', "SELECT count(*) FROM key_verifications_v1 WHERE time > '2000-01-01'", 'query_range_exceeds_retention', 'Cannot query data older than 30 days'],
  ])('%s → %s, the detail naming it', async (_name, query, code, detail) => {
    const res = await h.call('analytics.getVerifications', { query });
    expectError(res, 400, `user/bad_request/${code}`);
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toContain(detail);
    expect(res.body.error.errors).toEqual([]);
  });
});
