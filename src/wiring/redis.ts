/**
 * The distributed services: records in Redis (storage/redis), read through the in-process record
 * cache that pub/sub keeps fresh (storage/cached), limits in Redis Lua (ratelimit/redis-limiter).
 * Two connections: one for storage and publishing, one for the limiter's pipelined scripts (so a
 * burst of limit checks never queues behind a large storage reply), plus the bus's subscriber and,
 * unless REDIS_WAIT_REPLICAS=0, one for key-record writes, which wait for the masters' replicas
 * (redis/replica-wait.ts): WAIT blocks the connection it is sent on, and reads must not queue.
 */
import { AnalyticsQueries } from '../analytics/query-thread.js';
import { startRecorder } from '../analytics/recorders.js';
import { RedisInvalidationBus } from '../cache/invalidation.js';
import type { Config } from '../config.js';
import type { Logger } from '../obs/log.js';
import { RedisRateLimiter } from '../ratelimit/redis-limiter.js';
import { circuitStates } from '../redis/circuit-breaker.js';
import { createRedis, waitUntilReady, type RedisClient, type RedisSettings } from '../redis/client.js';
import { checkPersistence } from '../redis/persistence.js';
import { ReplicaWait } from '../redis/replica-wait.js';
import { cachedStorage } from '../storage/cached/open.js';
import { RecordCache } from '../storage/cached/record-cache.js';
import { openRedisStorage } from '../storage/redis/open.js';
import { HashPool } from '../workers/pool.js';
import { rememberedInProcess } from './in-process.js';
import type { Services } from './services.js';
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
  // Its commands may queue behind a WAIT on the same connection: they get its timeout on top.
  const keyWriter = config.redisWaitReplicas === 0 ? null
    : createRedis({ ...settings, commandTimeoutMs: settings.commandTimeoutMs + config.redisWaitTimeoutMs }, 'key-writes', log);
  const clients: RedisClient[] = [storageClient, limiterClient, ...(keyWriter ? [keyWriter] : [])];
  const bus = new RedisInvalidationBus(storageClient, settings, `${settings.keyPrefix}invalidate`, log);
  const release = async (): Promise<void> => {
    await bus.close();
    for (const client of clients) client.disconnect();
  };
  const subscribed = bus.start();
  try {
    await Promise.all([
      ...clients.map((client) => waitUntilReady(client, where, STARTUP_GRACE_MS)),
      Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, STARTUP_GRACE_MS).unref())]),
    ]);
  } catch {
    log.warn({ redis: where }, `${where} is not reachable yet: serving anyway and retrying with backoff; requests that need Redis answer 503 until it is back`);
  }
  await checkPersistenceAtStart(config, storageClient, log, release);
  const reachable = (): boolean => clients.every((client) => client.status === 'ready');
  let wasReachable = reachable();
  const watch = (): void => {
    const now = reachable();
    if (now !== wasReachable) log[now ? 'info' : 'warn']({ redis: where }, now ? 'Redis is reachable' : 'Redis is not reachable: requests that need it answer 503');
    wasReachable = now;
  };
  for (const client of clients) for (const event of ['ready', 'close']) client.on(event, watch);
  const cache = new RecordCache(bus, { maxEntries: config.cacheMaxEntries, ttlMs: config.cacheTtlMs }, log);
  const redisStorage = openRedisStorage(storageClient, {
    keyPrefix: settings.keyPrefix,
    verificationsRetained: config.verificationsRetained,
    ...(keyWriter ? { keyWrites: { writer: keyWriter, wait: new ReplicaWait(keyWriter, { replicas: config.redisWaitReplicas, timeoutMs: config.redisWaitTimeoutMs }, log) } } : {}),
  });
  const storage = cachedStorage(redisStorage, cache);
  log.info({ redis: where }, 'distributed mode: records and limits in Redis');
  return {
    config,
    log,
    storage,
    ...rememberedInProcess(config, storage, cache.feed, config.cacheTtlMs),
    limiter: new RedisRateLimiter({ client: limiterClient, keyPrefix: settings.keyPrefix, failMode: config.ratelimitFailMode, log }),
    recorder: startRecorder(config, storage.verifications, { kind: 'redis', settings }, log),
    analytics: new AnalyticsQueries(config, log),
    hashPool: new HashPool(config.hashWorkers),
    cache,
    now: Date.now,
    health: () => ({ redis: reachable() ? 'reachable' : 'unreachable' }),
    redisClients: clients,
    redisCircuits: circuitStates,
    release,
  };
}

/**
 * Checks the masters' AOF settings (redis/persistence.ts) now if Redis answers, else when it first
 * does, and again after every reconnection (a restarted Redis may have come back configured
 * otherwise). With REDIS_REQUIRE_AOF a problem found at start-up stops the start; found later, it
 * is logged as an error (a running server is not stopped).
 */
async function checkPersistenceAtStart(config: Config, client: RedisClient, log: Logger, release: () => Promise<void>): Promise<void> {
  const later = (): void => {
    void checkPersistence(client, log).then((problems) => {
      if (config.redisRequireAof && problems.length > 0) log.error({ problems }, 'REDIS_REQUIRE_AOF is set, but AOF is not known to be on at every Redis master');
    }, (err: unknown) => log.warn({ err }, 'could not check the Redis persistence settings'));
  };
  if (client.status !== 'ready') {
    client.on('ready', later);
    return;
  }
  const problems = await checkPersistence(client, log).catch((err: unknown) => {
    log.warn({ err }, 'could not check the Redis persistence settings');
    return [`could not check the Redis persistence settings (${err instanceof Error ? err.message : String(err)})`];
  });
  if (config.redisRequireAof && problems.length > 0) {
    await release();
    throw new Error(`REDIS_REQUIRE_AOF is set, but AOF is not known to be on at every Redis master:\n  ${problems.join('\n  ')}\nTurn AOF on (appendonly yes) or unset REDIS_REQUIRE_AOF.`);
  }
  client.on('ready', later);
}
