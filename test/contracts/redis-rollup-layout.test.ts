/**
 * Rollup rows in Redis across an upgrade: buckets written by the earlier layout (a field per sum,
 * added with HINCRBY) are read as they are, and rows the new layout adds to the same bucket, the
 * same dimensions included, come back as one row with both sums.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encode } from '../../src/redis/codec.js';
import { storageKeys } from '../../src/storage/redis/keys.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import { verificationRecord, type VerificationRollup } from '../../src/storage/records.js';
import type { RollupDims } from '../../src/storage/rollups.js';
import type { Storage } from '../../src/storage/types.js';
import { connect, freshPrefix } from './redis-storage-runner.js';
import type { RedisClient } from '../../src/redis/client.js';

describe('Redis rollup rows written by the earlier layout', () => {
  let client: RedisClient | undefined;
  afterEach(() => client?.disconnect());

  async function all(storage: Storage): Promise<VerificationRollup[]> {
    const rows: VerificationRollup[] = [];
    let cursor: string | undefined;
    do {
      const page = await storage.verifications.scanRollups('minute', { limit: 1_000, ...(cursor !== undefined ? { cursor } : {}) });
      rows.push(...page.items);
      cursor = page.cursor ?? undefined;
    } while (cursor !== undefined);
    return rows.sort((a, b) => a.keyId.localeCompare(b.keyId));
  }

  it('are read, and the same row written again adds to them', async () => {
    client = await connect('standalone');
    const prefix = freshPrefix();
    const k = storageKeys(prefix);
    const minute = Date.UTC(2026, 3, 1, 12, 0);
    // Two rows as the earlier layout stored them: dimensions, then a field per sum.
    const earlier = async (digest: string, keyId: string, count: number, latencySum: number): Promise<void> => {
      const dims: RollupDims = ['api_1', keyId, null, null, 'VALID', null];
      await client!.hset(k.verificationRollup('minute', minute), `d${digest}`, encode(dims), `c${digest}`, count, `s${digest}`, 2,
        `l${digest}`, latencySum, `n${digest}`, count);
    };
    await earlier('old-only', 'key_old', 3, 1.5);
    await client.zadd(k.verificationRollupBuckets('minute'), minute, minute);
    const storage = openRedisStorage(client, { keyPrefix: prefix });
    // The digest the new writes give key_both's row, so the earlier fields name the same row.
    await storage.verifications.append([verificationRecord(minute + 10, 'req_1', 'api_1', 'key_both', null, null, 'VALID', null, 1, 0.25)]);
    const fields = await client.hkeys(k.verificationRollup('minute', minute));
    const digest = fields.find((f) => f.startsWith('v'))!.slice(1);
    await earlier(digest, 'key_both', 4, 2);
    await storage.verifications.append([verificationRecord(minute + 20, 'req_2', 'api_1', 'key_both', null, null, 'VALID', null, 0, 0.5)]);

    const rows = await all(storage);
    expect(rows).toEqual([
      { time: minute, apiId: 'api_1', keyId: 'key_both', outcome: 'VALID', count: 6, spentCredits: 3, latencySum: 2.75, latencyCount: 6 },
      { time: minute, apiId: 'api_1', keyId: 'key_old', outcome: 'VALID', count: 3, spentCredits: 2, latencySum: 1.5, latencyCount: 3 },
    ]);
  });
});
