/**
 * lua/credits-change.lua applies the refill rule of src/storage/refill.ts: this compares the two
 * over a calendar of instants (month ends, leap days, year ends, refill days past the month's
 * length), so a change to one that is not made to the other fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from '../../src/redis/client.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import { WORKSPACE_ID, type CreditsRecord, type CreditsRefill } from '../../src/storage/records.js';
import { refilled } from '../../src/storage/refill.js';
import type { Storage } from '../../src/storage/types.js';
import { connect, freshPrefix } from './redis-storage-runner.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const instants = [
  '2024-01-01T00:00:00.000Z', '2024-01-31T23:59:59.999Z', '2024-02-28T12:00:00.000Z', '2024-02-29T00:00:00.000Z',
  '2024-03-01T00:00:00.001Z', '2024-03-31T06:00:00.000Z', '2024-04-30T23:00:00.000Z', '2024-12-31T23:59:59.000Z',
  '2025-01-15T10:00:00.000Z', '2025-02-28T00:00:00.000Z', '2025-03-30T00:00:00.000Z', '2025-07-01T00:00:00.000Z',
].map((iso) => Date.parse(iso));

const refills: CreditsRefill[] = [
  { interval: 'daily', amount: 10 },
  { interval: 'monthly', amount: 50 },
  ...[1, 2, 15, 28, 29, 30, 31].map((refillDay): CreditsRefill => ({ interval: 'monthly', amount: 50, refillDay })),
];

const lastRefillAges = [0, 1, HOUR_MS, DAY_MS - 1, DAY_MS, 2 * DAY_MS, 20 * DAY_MS, 31 * DAY_MS, 45 * DAY_MS, 70 * DAY_MS];

describe('credits-change.lua refills exactly as src/storage/refill.ts', () => {
  let client: RedisClient;
  let storage: Storage;
  let nowMs = 0;
  beforeAll(async () => {
    client = await connect('standalone');
    storage = openRedisStorage(client, { keyPrefix: freshPrefix(), now: () => nowMs });
    await storage.keys.insert({
      id: 'key_refill', workspaceId: WORKSPACE_ID, apiId: 'api_1', keyspaceId: 'ks_1', hash: 'h', start: '', enabled: true,
      hasCredits: false, ratelimits: [], permissions: [], roles: [], createdAt: 0,
    }, null);
  });
  afterAll(async () => {
    await storage.close();
    await client.quit();
  });

  it('get and spend agree with refilled() for every instant, refill and age', async () => {
    let cases = 0;
    let refilledCases = 0;
    for (const now of instants) {
      for (const refill of refills) {
        for (const age of lastRefillAges) {
          nowMs = now;
          const stored: CreditsRecord = { remaining: 3, refill, lastRefillAt: now - age };
          const expected = refilled(stored, now);
          await storage.keys.setCredits('key_refill', stored);
          const context = { now: new Date(now).toISOString(), refill, age };
          expect({ ...context, got: await storage.keys.getCredits('key_refill') }).toEqual({ ...context, got: expected });
          // get writes nothing; a spend writes the refill it found due.
          expect({ ...context, got: await storage.keys.spendCredits('key_refill', 0) }).toEqual({ ...context, got: { passed: true, remaining: expected.remaining } });
          expect({ ...context, got: await storage.keys.getCredits('key_refill') }).toEqual({ ...context, got: expected });
          cases++;
          if (expected !== stored) refilledCases++;
        }
      }
    }
    // The grid covers both outcomes in quantity, so neither side can pass by never refilling.
    expect(cases).toBe(instants.length * refills.length * lastRefillAges.length);
    expect(refilledCases).toBeGreaterThan(cases / 4);
    expect(refilledCases).toBeLessThan(cases);
  });
});
