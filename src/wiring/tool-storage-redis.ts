import type { Config } from '../config.js';
import type { Invalidation } from '../cache/invalidation.js';
import type { Logger } from '../obs/log.js';
import { createRedis, waitUntilReady, type RedisSettings } from '../redis/client.js';
import { cachedStorage } from '../storage/cached/open.js';
import { RecordCache } from '../storage/cached/record-cache.js';
import { openRedisStorage } from '../storage/redis/open.js';
import type { Storage } from '../storage/types.js';

/** How long the command-line tool waits for Redis before giving up with a clear message. */
const CONNECT_TIMEOUT_MS = 15_000;

/**
 * Storage for the command-line tool in distributed mode: writes go to Redis and evict the record
 * caches of running replicas (a revoked root key stops working at once); reads skip the cache.
 */
export async function openRedisStorageForTools(config: Config, settings: RedisSettings, log: Logger): Promise<{ storage: Storage; close(): Promise<void> }> {
  const client = createRedis(settings, 'cli', log);
  try {
    await waitUntilReady(client, 'Redis', CONNECT_TIMEOUT_MS);
  } catch (err) {
    client.disconnect();
    throw err;
  }
  const channel = `${settings.keyPrefix}invalidate`;
  // Never live: the tool caches nothing, it only tells the replicas what it changed.
  const publishOnly = { live: false, listen() {}, publish: async (m: Invalidation) => { await client.publish(channel, JSON.stringify(m)); } };
  const storage = cachedStorage(openRedisStorage(client, { keyPrefix: settings.keyPrefix, verificationsRetained: config.verificationsRetained }), new RecordCache(publishOnly, { maxEntries: 1, ttlMs: 1 }, log));
  return { storage, close: async () => { await storage.close(); client.disconnect(); } };
}
