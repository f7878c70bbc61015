/**
 * The product's own scenario, sent exactly as a raw HTTP client following the product description
 * sends it: plain fetch, `Content-Type: application/json`, `Authorization: Bearer`, and only the
 * fields the description shows (rate-limit definitions without `autoApply`, check items with
 * `name` and `cost`). An identity's limits are shared by every key linked to it through
 * `externalId`, several named limits can sit on one identity and the caller picks which to check,
 * and authentication failures have the 401/403 envelopes.
 */
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { recordSecret } from '../support/run-logs.js';
import { waitForWindowRoom } from '../support/time.js';

const DOCS = 'https://unkey.com/docs';

describe('the product scenario, over raw HTTP', () => {
  const h = useHarness();

  async function post(procedure: string, body: unknown, rootKey: string | null = h.adminKey): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (rootKey !== null) headers.Authorization = `Bearer ${rootKey}`;
    const res = await fetch(`${h.url}/v2/${procedure}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  }

  async function createKey(apiId: string, name: string, externalId: string): Promise<string> {
    const res = await post('keys.createKey', { apiId, name, externalId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    recordSecret(res.body.data.key);
    return res.body.data.key;
  }

  test('an identity limit of 5 per minute is shared by all of its keys', async () => {
    const api = await post('apis.createApi', { name: 'scenario' });
    expect(api.status).toBe(200);
    const apiId: string = api.body.data.apiId;

    const identity = await post('identities.createIdentity', {
      externalId: 'user_scenario',
      ratelimits: [{ name: 'requests', limit: 5, duration: 60000 }],
    });
    expect(identity.status, JSON.stringify(identity.body)).toBe(200);
    expect(identity.body.meta.requestId).toEqual(expect.any(String));

    const keys = [await createKey(apiId, 'laptop', 'user_scenario'), await createKey(apiId, 'phone', 'user_scenario')];
    // All six inside one minute window, so the count is exact.
    await waitForWindowRoom(60000);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post('keys.verifyKey', { key: keys[i % 2], ratelimits: [{ name: 'requests', cost: 1 }] });
      expect(res.status).toBe(200);
      expect(res.body.meta.requestId).toEqual(expect.any(String));
      codes.push(res.body.data.code);
      if (res.body.data.code === 'RATE_LIMITED') expect(res.body.data.valid).toBe(false);
    }
    // Five units in the window across both keys, whichever key spends them; the sixth is refused.
    expect(codes).toEqual(['VALID', 'VALID', 'VALID', 'VALID', 'VALID', 'RATE_LIMITED']);
  });

  test('several named limits on one identity: the caller chooses which to check, and cost counts units', async () => {
    const apiId: string = (await post('apis.createApi', { name: 'scenario-tokens' })).body.data.apiId;
    const identity = await post('identities.createIdentity', {
      externalId: 'user_tokens',
      ratelimits: [
        { name: 'tokens_per_hour', limit: 100, duration: 3600000 },
        { name: 'requests_per_day', limit: 3, duration: 86400000 },
      ],
    });
    expect(identity.status, JSON.stringify(identity.body)).toBe(200);
    const key = await createKey(apiId, 'worker', 'user_tokens');

    const verify = (ratelimits: unknown[]) => post('keys.verifyKey', { key, ratelimits });
    expect((await verify([{ name: 'tokens_per_hour', cost: 60 }])).body.data).toMatchObject({ valid: true, code: 'VALID' });
    // 60 + 60 > 100: refused, and nothing of it is consumed.
    expect((await verify([{ name: 'tokens_per_hour', cost: 60 }])).body.data).toMatchObject({ valid: false, code: 'RATE_LIMITED' });
    expect((await verify([{ name: 'tokens_per_hour', cost: 40 }])).body.data).toMatchObject({ valid: true, code: 'VALID' });
    // The daily request limit is untouched by the token checks.
    for (let i = 0; i < 3; i++) expect((await verify([{ name: 'requests_per_day', cost: 1 }])).body.data.code).toBe('VALID');
    expect((await verify([{ name: 'requests_per_day', cost: 1 }])).body.data.code).toBe('RATE_LIMITED');
  });

  test('authentication failures: 401 without a header, with an unknown or malformed key; 403 naming the missing tuple', async () => {
    for (const rootKey of [null, 'not-a-root-key', '']) {
      const res = await post('apis.createApi', { name: 'nope' }, rootKey);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ title: 'Unauthorized', status: 401, type: `${DOCS}/errors/unauthorized` });
      expect(res.body.meta.requestId).toEqual(expect.any(String));
    }
    const reader = await h.rootKey(['api.*.read_api']);
    const res = await post('apis.createApi', { name: 'not-allowed' }, reader);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ title: 'Forbidden', status: 403, type: `${DOCS}/errors/forbidden` });
    expect(res.body.error.detail).toContain('api.*.create_api');
  });
});
