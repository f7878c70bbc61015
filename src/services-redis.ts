/**
 * The distributed services: records in Redis (storage/redis), read through the in-process record
 * cache that pub/sub keeps fresh (storage/cached), limits in Redis Lua (ratelimit/redis-limiter).
 * Two connections: one for storage and publishing, one for the limiter's pipelined scripts (so a
 * burst of limit checks never queues behind a large storage reply), plus the bus's subscriber.
 */
import type { Config } from './config.js';
import type { Logger } from './obs/log.js';
import { VerificationRecorder } from './analytics/recorder.js';
import { RedisInvalidationBus, type Invalidation } from './cache/invalidation.js';
import { createRedis, waitUntilReady, type RedisSettings } from './redis/client.js';
import { RedisRateLimiter } from './ratelimit/redis-limiter.js';
import { cachedStorage } from './storage/cached/open.js';
import { RecordCache } from './storage/cached/record-cache.js';
import { openRedisStorage } from './storage/redis/open.js';
import type { Services } from './services.js';
import type { Storage } from './storage/types.js';

/** How long the command-line tool waits for Redis before giving up with a clear message. */
const CONNECT_TIMEOUT_MS = 15_000;
/**
 * How long the server waits for Redis at start-up before it starts serving anyway: requests that
 * need Redis then answer 503 while the clients keep reconnecting with backoff, and the liveness
 * answer says Redis is unreachable.
 */
const STARTUP_GRACE_MS = 3_000;

export async function buildRedisServices(config: Config, settings: RedisSettings, log: Logger): Promise<Services> {
  const where = settings.url !== undefined ? `Redis at ${new URL(settings.url).host}` : `Redis Cluster at ${settings.clusterNodes!.map((n) => `${n.host}:${n.port}`).join(',')}`;
  const storageClient = createRedis(settings, 'storage', log);
  const limiterClient = createRedis(settings, 'limiter', log);
  const bus = new RedisInvalidationBus(storageClient, settings, `${settings.keyPrefix}invalidate`, log);
  const release = async (): Promise<void> => {
    await bus.close();
    storageClient.disconnect();
    limiterClient.disconnect();
  };
  const subscribed = bus.start();
  try {
    await Promise.all([
      waitUntilReady(storageClient, where, STARTUP_GRACE_MS),
      waitUntilReady(limiterClient, where, STARTUP_GRACE_MS),
      Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, STARTUP_GRACE_MS).unref())]),
    ]);
  } catch {
    log.warn({ redis: where }, `${where} is not reachable yet: serving anyway and retrying with backoff; requests that need Redis answer 503 until it is back`);
  }
  const reachable = (): boolean => storageClient.status === 'ready' && limiterClient.status === 'ready';
  let wasReachable = reachable();
  const watch = (): void => {
    const now = reachable();
    if (now !== wasReachable) log[now ? 'info' : 'warn']({ redis: where }, now ? 'Redis is reachable' : 'Redis is not reachable: requests that need it answer 503');
    wasReachable = now;
  };
  for (const client of [storageClient, limiterClient]) for (const event of ['ready', 'close']) client.on(event, watch);
  const cache = new RecordCache(bus, { maxEntries: config.cacheMaxEntries, ttlMs: config.cacheTtlMs }, log);
  const redisStorage = openRedisStorage(storageClient, { keyPrefix: settings.keyPrefix, verificationsRetained: config.verificationsRetained });
  const storage = cachedStorage(redisStorage, cache);
  log.info({ redis: where }, 'distributed mode: records and limits in Redis');
  return {
    config,
    log,
    storage,
    limiter: new RedisRateLimiter({ client: limiterClient, keyPrefix: settings.keyPrefix, failMode: config.ratelimitFailMode, log }),
    recorder: new VerificationRecorder(storage.verifications, log),
    cache,
    now: Date.now,
    health: () => ({ redis: reachable() ? 'reachable' : 'unreachable' }),
    release,
  };
}

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
