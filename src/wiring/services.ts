/**
 * Services: every dependency a route may use, built once at start-up (build.ts) and closed at
 * shutdown. Routes receive this object; they never construct backends themselves. Embedded mode
 * keeps everything in this process (embedded.ts: LMDB, the in-process limiter); with REDIS_URL or
 * REDIS_CLUSTER_NODES set, redis.ts builds the distributed set instead.
 */
import type { AnalyticsQueries } from '../analytics/query-thread.js';
import type { Recorder } from '../analytics/recorder.js';
import type { RootKeyAuthenticator } from '../auth/root-key.js';
import type { Config } from '../config.js';
import type { VerificationHotSet } from '../keys/hot-set.js';
import type { Logger } from '../obs/log.js';
import type { Metrics } from '../obs/metrics.js';
import type { RateLimiter } from '../ratelimit/types.js';
import type { CircuitState } from '../redis/circuit-breaker.js';
import type { RedisClient } from '../redis/client.js';
import type { RecordCache } from '../storage/cached/record-cache.js';
import type { Storage } from '../storage/types.js';
import type { HashPool } from '../workers/pool.js';

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
  /** Worker threads that check slow-hash migrated keys, started at the first such check (HASH_WORKERS). */
  readonly hashPool: HashPool;
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
