/**
 * Records verification outcomes off the request path: verifyKey only pushes a record into an
 * in-memory buffer (no I/O, no await), and a timer writes the buffer to the store in one batch.
 * The buffer is bounded: if the store falls behind by more than `maxPending` records, new ones
 * are dropped and counted rather than letting memory grow or slowing verification.
 *
 * The store adds every record to its rollups as it appends it. With `rollupRetentionMs`, the
 * recorder also removes, about once a minute, the rollup buckets no analytics query may read any
 * more (those before the bucket holding now − retention), so rollups stay bounded by time.
 */
import type { Logger } from '../obs/log.js';
import type { VerificationRecord } from '../storage/records.js';
import { bucketStart, GRANULARITIES } from '../storage/rollups.js';
import type { VerificationStore } from '../storage/types.js';

export interface RecorderOptions {
  /** How often the buffer is written. */
  readonly flushIntervalMs?: number;
  /** A full batch is written at once, without waiting for the timer. */
  readonly batchSize?: number;
  readonly maxPending?: number;
  /** How long rollup buckets are kept (the analytics look-back); unset: never pruned. */
  readonly rollupRetentionMs?: number;
  /** The clock pruning is decided by. */
  readonly now?: () => number;
}

/** Pruning runs at most this often. */
const PRUNE_EVERY_MS = 60_000;

export class VerificationRecorder {
  private buffer: VerificationRecord[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxPending: number;
  private readonly rollupRetentionMs: number | undefined;
  private readonly now: () => number;
  private lastPruneMs = -Infinity;
  /** Records dropped because the buffer was full (since start). */
  dropped = 0;

  constructor(private readonly store: VerificationStore, private readonly log: Logger, options: RecorderOptions = {}) {
    this.batchSize = options.batchSize ?? 2_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.rollupRetentionMs = options.rollupRetentionMs;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => {
      void this.flush();
      if (this.rollupRetentionMs !== undefined && this.now() - this.lastPruneMs >= PRUNE_EVERY_MS) void this.prune();
    }, options.flushIntervalMs ?? 1_000);
    this.timer.unref();
  }

  record(record: VerificationRecord): void {
    if (this.buffer.length >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.buffer.push(record);
    if (this.buffer.length === this.batchSize) void this.flush();
  }

  /** Writes what is buffered now; resolves when it (and any write before it) is stored. */
  flush(): Promise<void> {
    if (this.buffer.length === 0) return this.writing;
    const batch = this.buffer;
    this.buffer = [];
    // Writes are chained so batches reach the store in order.
    this.writing = this.writing.then(() => this.store.append(batch)).catch((err: unknown) => {
      this.log.error({ err, records: batch.length }, 'verification records could not be stored and were dropped');
    });
    return this.writing;
  }

  /**
   * Removes the rollup buckets older than the retention (after the writes queued so far). Runs
   * by itself about once a minute when `rollupRetentionMs` is set; resolves when done.
   */
  prune(): Promise<void> {
    const retention = this.rollupRetentionMs;
    if (retention === undefined) return this.writing;
    this.lastPruneMs = this.now();
    const since = this.lastPruneMs - retention;
    this.writing = this.writing.then(async () => {
      for (const granularity of GRANULARITIES) await this.store.pruneRollups(granularity, bucketStart(granularity, since));
    }).catch((err: unknown) => {
      this.log.error({ err }, 'old verification rollups could not be pruned (retried in a minute)');
    });
    return this.writing;
  }

  /** Stops the timer and stores everything still buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.dropped > 0) this.log.warn({ dropped: this.dropped }, 'verification records were dropped while the store fell behind');
  }
}
