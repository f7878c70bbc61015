import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const QUERY = { query: 'SELECT api_id, count(*) AS n FROM key_verifications_v1 GROUP BY api_id ORDER BY api_id' };

describe('analytics.getVerifications → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'analytics.getVerifications', () => QUERY, 'api.*.read_analytics', ['api.*.read_key', 'api.*.verify_key']);

  test('checked before the query is read: an invalid query without the permission is a 403, not a 400', async () => {
    const key = await h.rootKey(['api.*.read_api']);
    expectError(await h.call('analytics.getVerifications', { query: 'DROP TABLE x' }, { rootKey: key }), 403, 'forbidden');
  });

  test('api.<apiId>.read_analytics narrows every query to that API instead of failing it', async () => {
    const mine = await h.createApi('mine');
    const other = await h.createApi('other');
    for (const apiId of [mine, other]) {
      const { key } = await h.createKey({ apiId });
      await h.verify(key);
    }
    await h.keygate.services.recorder.flush();
    const all = await h.call('analytics.getVerifications', QUERY);
    // ORDER BY compares by code unit (ids differ in case), not by locale.
    expect(all.body.data).toEqual([{ api_id: mine, n: 1 }, { api_id: other, n: 1 }].sort((a, b) => (a.api_id < b.api_id ? -1 : 1)));

    const scoped = await h.rootKey([`api.${mine}.read_analytics`]);
    const res = await h.call('analytics.getVerifications', QUERY, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ api_id: mine, n: 1 }]);
    // Asking for the other API by name changes nothing: the scope is ANDed with the query.
    const asked = await h.call('analytics.getVerifications', { query: `SELECT count(*) AS n FROM key_verifications_per_day_v1 WHERE api_id = '${other}' OR 1 = 1` }, { rootKey: scoped });
    expect(asked.body.data).toEqual([{ n: 1 }]);
  });
});
