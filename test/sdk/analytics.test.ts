/** analytics.getVerifications through the official SDK (@unkey/api has it: unkey.analytics.getVerifications). */
import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);

describe('the official SDK against keygate: analytics.getVerifications', () => {
  const h = useHarness();

  test('verifications made with the SDK come back from Unkey-style queries, raw and rolled up', async () => {
    const unkey = sdkFor(h);
    const { apiId } = (await unkey.apis.createApi({ name: 'sdk-analytics' })).data;
    const { key, keyId } = (await unkey.keys.createKey({ apiId, externalId: 'sdk-acme', credits: { remaining: 1 } })).data;
    await unkey.keys.verifyKey({ key, tags: ['path=/v1/weather'] });
    await unkey.keys.verifyKey({ key, tags: ['path=/v1/weather'] });
    await h.keygate.services.recorder.flush();

    const raw = await unkey.analytics.getVerifications({
      query: `SELECT outcome, COUNT(*) AS verifications, SUM(spent_credits) AS credits FROM key_verifications_v1 WHERE external_id = 'sdk-acme' GROUP BY outcome ORDER BY outcome`,
    });
    expect(raw.meta.requestId).toMatch(/^req_/);
    expect(raw.data).toEqual([{ outcome: 'USAGE_EXCEEDED', verifications: 1, credits: 0 }, { outcome: 'VALID', verifications: 1, credits: 1 }]);

    const perDay = await unkey.analytics.getVerifications({
      query: `SELECT key_id, SUM(count) AS n FROM key_verifications_per_day_v1 WHERE time >= now() - INTERVAL 1 DAY AND has(tags, 'path=/v1/weather') GROUP BY key_id`,
    });
    expect(perDay.data).toEqual([{ key_id: keyId, n: 2 }]);
  });

  test('refusals arrive as the SDK error classes: 400 naming the construct, 403 naming the permission', async () => {
    const bad = await rejection(sdkFor(h).analytics.getVerifications({ query: 'SELECT * FROM key_verifications_v1 v JOIN key_verifications_v1 w ON v.key_id = w.key_id' }));
    expect(bad).toBeInstanceOf(errors.BadRequestErrorResponse);
    const { error } = (bad as errors.BadRequestErrorResponse).data$;
    expect(error).toMatchObject({ status: 400, type: `${DOCS}/user/bad_request/invalid_analytics_query` });
    expect(error.detail).toContain('JOIN is not supported');

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_api'])).analytics.getVerifications({ query: 'SELECT count(*) FROM key_verifications_v1' }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.read_analytics');
  });
});
