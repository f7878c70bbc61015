/**
 * No analytics query holds up verifications. A query whose aliases would expand to an
 * exponential tree is refused before it runs; a heavy query within every limit runs on the
 * query thread while verifyKey and liveness go on answering on the same server.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_EXPANDED_NODES } from '../../src/analytics/plan.js';
import type { VerificationRecord } from '../../src/storage/records.js';
import { expectError } from '../support/auth-cases.js';
import { startHarness, type Harness } from '../support/harness.js';

/** `SELECT 1 AS a0, a0+a0 AS a1, …`: each alias doubles the tree the last one expands to. */
function doublingAliases(count: number): string {
  const items = ['1 AS a0'];
  for (let i = 1; i <= count; i++) items.push(`a${i - 1}+a${i - 1} AS a${i}`);
  return `SELECT ${items.join(', ')} FROM key_verifications_v1`;
}

const SEEDED = 60_000;

describe('analytics queries and the event loop', () => {
  let h: Harness & { stop(): Promise<void> };
  let key: string;

  beforeAll(async () => {
    h = await startHarness();
    const apiId = await h.createApi();
    const created = await h.createKey({ apiId });
    key = created.key;
    const now = Date.now();
    const { recorder } = h.keygate.services;
    for (let i = 0; i < SEEDED; i++) {
      const record: VerificationRecord = { time: now - 1_000 - i, requestId: `req_heavy${i}`, apiId, keyId: created.keyId, outcome: 'VALID', spentCredits: 0, latency: (i % 100) / 10 };
      recorder.record(record);
    }
    await recorder.flush();
  }, 120_000);
  afterAll(async () => { await h?.stop(); });

  for (const aliases of [20, 40]) {
    test(`${aliases} doubling aliases: a 400 naming the expanded-size limit, at once`, async () => {
      const res = await h.call('analytics.getVerifications', { query: doublingAliases(aliases) });
      expectError(res, 400, 'user/bad_request/invalid_analytics_query');
      expect(res.body.error.detail).toContain(`more than ${MAX_EXPANDED_NODES} expression nodes`);
    });
  }

  test('while a heavy query runs, verifyKey and liveness keep answering', async () => {
    // About a thousand expression nodes evaluated for each of the seeded rows.
    const sum = Array.from({ length: 400 }, () => 'latency').join(' + ');
    const query = `SELECT count(*) AS n FROM key_verifications_v1 WHERE ${sum} >= 0`;
    let inFlight = true;
    const answer = h.call('analytics.getVerifications', { query }).finally(() => { inFlight = false; });
    let verified = 0;
    let live = 0;
    while (inFlight) {
      const [v, l] = await Promise.all([h.verify(key), fetch(`${h.url}/v2/liveness`)]);
      expect(v.body.data.valid).toBe(true);
      expect(l.status).toBe(200);
      if (inFlight) {
        verified++;
        live++;
      }
    }
    const res = await answer;
    // Within its limits it either finishes or reaches its time limit; both are answers.
    expect([200, 422], JSON.stringify(res.body)).toContain(res.status);
    // The seeded rows, and the verifications made meanwhile that were already written.
    if (res.status === 200) expect(res.body.data[0].n).toBeGreaterThanOrEqual(SEEDED);
    // Answered alongside the query: a query on the event loop lets one through per page at best.
    expect(verified, 'verifications answered while the query ran').toBeGreaterThan(200);
    expect(live, 'liveness answers while the query ran').toBeGreaterThan(200);
  }, 60_000);
});
