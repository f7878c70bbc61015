/**
 * Services: every dependency a route may use, built once at start-up and closed at shutdown.
 * Routes receive this object; they never construct backends themselves. Embedded mode keeps
 * everything in this process (LMDB, the in-process limiter); with REDIS_URL or
 * REDIS_CLUSTER_NODES set, services-redis.ts builds the distributed set instead.
 */
import type { Config } from './config.js';
import type { Logger } from './obs/log.js';
import type { RateLimiter } from './ratelimit/types.js';
import type { Storage } from './storage/types.js';
import type { RecordCache } from './storage/cached/record-cache.js';
import { openLmdbStorage } from './storage/lmdb/open.js';
import { MemoryRateLimiter } from './ratelimit/memory-limiter.js';
import type { Recorder } from './analytics/recorder.js';
import { AnalyticsQueries } from './analytics/query-thread.js';
import { ThreadRecorder } from './analytics/recorder-thread.js';
import { closeHashPool } from './workers/pool.js';
import { Metrics } from './obs/metrics.js';
import { countingLimiter, instrumentRedis } from './obs/instrument.js';
import type { RedisClient } from './redis/client.js';
import type { CircuitState } from './redis/circuit-breaker.js';
import type { ChangeFeed } from './cache/change-feed.js';
import { VerificationHotSet } from './keys/hot-set.js';
import { RootKeyAuthenticator } from './auth/root-key.js';

export interface Services {
  readonly config: Config;
  readonly log: Logger;
  readonly storage: Storage;
  readonly limiter: RateLimiter;
  /** Verification outcomes, written in batches off the request path. */
  readonly recorder: Recorder;
  /** analytics.getVerifications, run on a thread of its own (src/analytics/query-thread.ts). */
  readonly analytics: AnalyticsQueries;
  /** Verification entries remembered in process (src/keys/hot-set.ts). */
  readonly hotKeys: VerificationHotSet;
  /** Bearer authentication with remembered principals (src/auth/root-key.ts). */
  readonly rootKeyAuth: RootKeyAuthenticator;
  /** Distributed mode only: the in-process cache of hot records, kept fresh over pub/sub. */
  readonly cache?: RecordCache;
  /** GET /metrics; absent with METRICS=off. */
  readonly metrics?: Metrics;
  /** Unix ms; the one clock routes use. */
  readonly now: () => number;
  /** What the mode depends on and whether it answers now (liveness shows it); embedded: none. */
  readonly health?: () => Readonly<Record<string, string>>;
  /** Distributed mode: the Redis clients, so GET /metrics can time their commands. */
  readonly redisClients?: readonly RedisClient[];
  /** Distributed mode: the Redis masters' circuit breakers, for GET /metrics. */
  readonly redisCircuits?: () => ReadonlyMap<string, Readonly<CircuitState>>;
  /** Releases what the mode holds beyond storage and limiter (Redis connections). */
  readonly release?: () => Promise<void>;
}

export async function buildServices(config: Config, log: Logger): Promise<Services> {
  const services = await buildModeServices(config, log);
  if (!config.metrics) return services;
  const metrics = new Metrics();
  const cache = services.cache;
  if (cache) metrics.cache('records', () => ({ hits: cache.hits, misses: cache.misses, evictions: cache.evictions }));
  const { hotKeys } = services;
  metrics.cache('verification', () => ({ hits: hotKeys.hits, misses: hotKeys.misses, evictions: hotKeys.evictions }));
  metrics.recorder(() => services.recorder.stats());
  for (const client of services.redisClients ?? []) instrumentRedis(client, metrics);
  if (services.redisCircuits) metrics.circuits(services.redisCircuits);
  return { ...services, metrics, limiter: countingLimiter(services.limiter, metrics) };
}

async function buildModeServices(config: Config, log: Logger): Promise<Services> {
  if (config.redis) {
    // Loaded only in distributed mode: the embedded default never opens ioredis.
    const { buildRedisServices } = await import('./services-redis.js');
    return buildRedisServices(config, config.redis, log);
  }
  const storage = openLmdbStorage(config.dataDir, { verificationsRetained: config.verificationsRetained });
  return {
    config,
    log,
    storage,
    limiter: new MemoryRateLimiter(),
    ...rememberedInProcess(config, storage, storage.changes),
    recorder: new ThreadRecorder(storage.verifications, log, {
      store: { kind: 'lmdb', dataDir: config.dataDir }, verificationsRetained: config.verificationsRetained, rollupRetentionMs: config.analyticsRetentionDays * 86_400_000,
    }),
    analytics: new AnalyticsQueries(config, log),
    now: Date.now,
  };
}

/** The in-process memory of keys and root keys, kept current by the backend's change feed. */
export function rememberedInProcess(config: Config, storage: Storage, feed: ChangeFeed, ttlMs?: number): Pick<Services, 'hotKeys' | 'rootKeyAuth'> {
  return {
    hotKeys: new VerificationHotSet(storage, feed, { maxEntries: config.cacheMaxEntries, ...(ttlMs === undefined ? {} : { ttlMs }) }),
    rootKeyAuth: new RootKeyAuthenticator(storage.rootKeys, feed),
  };
}

export async function closeServices(services: Services): Promise<void> {
  // First: a slow-hash verification still running finishes and may yet write its rehash.
  await closeHashPool(services);
  await services.limiter.close();
  await services.analytics.close();
  // Before the store closes: buffered verification records are written, not lost.
  await services.recorder.close();
  await services.storage.close();
  await services.release?.();
}
