/** The embedded services: everything in this process, records in the LMDB folder (DATA_DIR). */
import { AnalyticsQueries } from '../analytics/query-thread.js';
import { startRecorder } from '../analytics/recorders.js';
import type { Config } from '../config.js';
import type { Logger } from '../obs/log.js';
import { MemoryRateLimiter } from '../ratelimit/memory-limiter.js';
import { openLmdbStorage } from '../storage/lmdb/open.js';
import { HashPool } from '../workers/pool.js';
import { rememberedInProcess } from './in-process.js';
import type { Services } from './services.js';

export function buildEmbeddedServices(config: Config, log: Logger): Services {
  const storage = openLmdbStorage(config.dataDir, { verificationsRetained: config.verificationsRetained });
  return {
    config,
    log,
    storage,
    limiter: new MemoryRateLimiter(),
    ...rememberedInProcess(config, storage, storage.changes),
    recorder: startRecorder(config, storage.verifications, { kind: 'lmdb', dataDir: config.dataDir }, log),
    analytics: new AnalyticsQueries(config, log),
    hashPool: new HashPool(config.hashWorkers),
    now: Date.now,
  };
}
