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
import { VerificationRecorder } from './analytics/recorder.js';

export interface Services {
  readonly config: Config;
  readonly log: Logger;
  readonly storage: Storage;
  readonly limiter: RateLimiter;
  /** Verification outcomes, written in batches off the request path. */
  readonly recorder: VerificationRecorder;
  /** Unix ms; the one clock routes use. */
  readonly now: () => number;
}

export function buildServices(config: Config, log: Logger): Services {
  const storage = openLmdbStorage(config.dataDir, { verificationsRetained: config.verificationsRetained });
  return {
    config,
    log,
    storage,
    limiter: new MemoryRateLimiter(),
    recorder: new VerificationRecorder(storage.verifications, log),
    now: Date.now,
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.limiter.close();
  // Before the store closes: buffered verification records are written, not lost.
  await services.recorder.close();
  await services.storage.close();
}
