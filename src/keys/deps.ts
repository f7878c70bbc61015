/**
 * What keys/ takes from the running service: only the parts verification and migration use, so
 * the domain code does not depend on how the services are wired (src/wiring/services.ts has them all).
 */
import type { Recorder } from '../analytics/recorder.js';
import type { RateLimiter } from '../ratelimit/types.js';
import type { Storage } from '../storage/types.js';
import type { HashPool } from '../workers/pool.js';
import type { VerificationHotSet } from './hot-set.js';

/** Completing a key migration at its first verification (migrated-lookup.ts). */
export interface MigrationDeps {
  readonly storage: Pick<Storage, 'keys' | 'migrations'>;
  readonly hashPool: Pick<HashPool, 'verifySecret'>;
}

/** keys.verifyKey (verify.ts). */
export interface VerifyDeps extends MigrationDeps {
  readonly hotKeys: VerificationHotSet;
  readonly limiter: RateLimiter;
  readonly recorder: Recorder;
  /** Unix ms. */
  readonly now: () => number;
}
