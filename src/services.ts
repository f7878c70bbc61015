/**
 * Services: every dependency a route may use, built once at start-up and closed at shutdown.
 * Routes receive this object; they never construct backends themselves.
 */
import type { Config } from './config.js';
import type { Logger } from './obs/log.js';
import type { RateLimiter } from './ratelimit/types.js';
import type { Storage } from './storage/types.js';
import { openLmdbStorage } from './storage/lmdb/open.js';
import { MemoryRateLimiter } from './ratelimit/memory-limiter.js';

export interface Services {
  readonly config: Config;
  readonly log: Logger;
  readonly storage: Storage;
  readonly limiter: RateLimiter;
  /** Unix ms; the one clock routes use. */
  readonly now: () => number;
}

export function buildServices(config: Config, log: Logger): Services {
  return {
    config,
    log,
    storage: openLmdbStorage(config.dataDir),
    limiter: new MemoryRateLimiter(),
    now: Date.now,
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.limiter.close();
  await services.storage.close();
}
