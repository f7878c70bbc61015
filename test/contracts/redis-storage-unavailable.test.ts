/** An unreachable Redis makes every store reject with ServiceUnavailableError (the spec's 503). */
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../src/errors/api-error.js';
import { createRedis } from '../../src/redis/client.js';
import { freeRedisPort } from '../support/redis-servers.js';
import { openRedisStorage } from '../../src/storage/redis/open.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import { DuplicateError } from '../../src/storage/types.js';
import { connect, freshPrefix } from './redis-storage-runner.js';

describe('Redis storage without a reachable Redis', () => {
  it('reads, writes and scripts reject with ServiceUnavailableError', async () => {
    // A free port: nothing listens, and the client (no offline queue) fails commands at once.
    const client = createRedis({ url: `redis://127.0.0.1:${await freeRedisPort()}`, commandTimeoutMs: 500, keyPrefix: '' }, 'test');
    client.on('error', () => {});
    const storage = openRedisStorage(client, { keyPrefix: freshPrefix() });
    try {
      const calls = [
        storage.keys.findByHash('h'),
        storage.keys.spendCredits('key_1', 1),
        storage.identities.getOrCreate(WORKSPACE_ID, 'x', () => ({ id: 'id_1', workspaceId: WORKSPACE_ID, externalId: 'x', ratelimits: [], createdAt: 1 })),
        storage.verifications.append([{ time: 1, requestId: 'r', apiId: 'a', keyId: 'k', outcome: 'VALID', spentCredits: 0 }]),
        storage.verifications.scan({ limit: 10 }),
        storage.verifications.scanRollups('day', { limit: 10 }),
        storage.verifications.pruneRollups('minute', 1),
        storage.rootKeys.list(),
      ];
      for (const call of calls) await expect(call).rejects.toBeInstanceOf(ServiceUnavailableError);
    } finally {
      await storage.close();
      client.disconnect();
    }
  });

  it('other errors pass through unchanged', async () => {
    const client = await connect('standalone');
    const storage = openRedisStorage(client, { keyPrefix: freshPrefix() });
    try {
      await storage.migrations.insert({ id: 'mig_1', workspaceId: WORKSPACE_ID, algorithm: 'sha256', createdAt: 1 });
      await expect(storage.migrations.insert({ id: 'mig_1', workspaceId: WORKSPACE_ID, algorithm: 'sha256', createdAt: 2 })).rejects.toBeInstanceOf(DuplicateError);
    } finally {
      await storage.close();
      await client.quit();
    }
  });
});
