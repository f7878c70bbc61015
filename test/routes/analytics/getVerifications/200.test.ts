import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('analytics.getVerifications → 200', () => {
  const h = useHarness();
  const query = async (sql: string, extra: Record<string, unknown> = {}) => {
    const res = await h.call('analytics.getVerifications', { query: sql, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.requestId).toMatch(/^req_/);
    return res.body.data as Record<string, unknown>[];
  };

  test('verifications made through keys.verifyKey are queryable once recorded: raw rows and rollups', async () => {
    const apiId = await h.createApi('analytics-e2e');
    const { keyId, key } = await h.createKey({ apiId, externalId: 'acme-e2e', credits: { remaining: 2 } });
    for (let i = 0; i < 3; i++) await h.verify(key, { tags: ['path=/v1/weather', `call=${i}`] });
    await h.verify(key, { credits: { cost: 0 } });
    await h.keygate.services.recorder.flush();

    const rows = await query(`SELECT outcome, spent_credits, tags, external_id, key_space_id, api_id FROM key_verifications_v1
      WHERE key_id = '${keyId}' ORDER BY time, outcome`);
    const keyspaceId = (await h.keygate.services.storage.apis.get(apiId))!.keyspaceId;
    expect(rows).toEqual([
      { outcome: 'VALID', spent_credits: 1, tags: ['path=/v1/weather', 'call=0'], external_id: 'acme-e2e', key_space_id: keyspaceId, api_id: apiId },
      { outcome: 'VALID', spent_credits: 1, tags: ['path=/v1/weather', 'call=1'], external_id: 'acme-e2e', key_space_id: keyspaceId, api_id: apiId },
      { outcome: 'USAGE_EXCEEDED', spent_credits: 0, tags: ['path=/v1/weather', 'call=2'], external_id: 'acme-e2e', key_space_id: keyspaceId, api_id: apiId },
      { outcome: 'VALID', spent_credits: 0, tags: [], external_id: 'acme-e2e', key_space_id: keyspaceId, api_id: apiId },
    ]);

    for (const table of ['minute', 'hour', 'day', 'month']) {
      expect(await query(`SELECT outcome, sum(count) AS n, sum(spent_credits) AS credits FROM key_verifications_per_${table}_v1
        WHERE key_id = '${keyId}' GROUP BY outcome ORDER BY outcome`)).toEqual([
        { outcome: 'USAGE_EXCEEDED', n: 1, credits: 0 },
        { outcome: 'VALID', n: 3, credits: 2 },
      ]);
    }
    expect(await query(`SELECT count(*) AS n FROM key_verifications_v1 WHERE key_space_id = '${keyspaceId}' AND has(tags, 'path=/v1/weather')`)).toEqual([{ n: 3 }]);
  });

  test('an unknown key is not recorded: NOT_FOUND does not reach the verification stage', async () => {
    await h.verify('kg_no_such_key_at_all_000000');
    await h.keygate.services.recorder.flush();
    expect(await query("SELECT count(*) AS n FROM key_verifications_v1 WHERE outcome = 'NOT_FOUND'")).toEqual([{ n: 0 }]);
  });

  test('extra request properties are tolerated, as in Unkey; an empty result is []', async () => {
    expect(await query("SELECT key_id FROM key_verifications_v1 WHERE key_id = 'key_none'", { format: 'json' })).toEqual([]);
  });
});
