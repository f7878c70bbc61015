/**
 * Records verification outcomes off the request path: verifyKey only pushes a record into an
 * in-memory buffer (no I/O, no await), and a timer writes the buffer to the store in one batch.
 * The buffer is bounded: if the store falls behind by more than `maxPending` records, new ones
 * are dropped and counted rather than letting memory grow or slowing verification.
 *
 * Rollups: the store adds the increments the recorder hands it with the records. Increments are
 * summed here first and handed over with the first batch after each UTC minute ends: the minute
 * rows of the minute that ended, and the hour, day and month increments derived from those minute
 * sums. So each row is written at most once a minute, whatever the number of verifications it
 * counts (rewriting a key's rows with every batch was most of the work when many keys are
 * verified). Sooner when many are held (MAX_HELD), and all at every explicit flush() and at close. The price: a crash (not a graceful stop) loses those held sums from the rollup
 * tables (raw records are written every second); analytics queries flush first (see the
 * getVerifications route), so an answer counts every verification this process made before it.
 *
 * With `rollupRetentionMs`, the
 * recorder also removes, about once a minute, the rollup buckets no analytics query may read any
 * more (those before the bucket holding now − retention), so rollups stay bounded by time.
 */
import type { RollupGranularity, VerificationRecord } from '../storage/records.js';
import { bucketStart, GRANULARITIES, RollupSums, type RollupDelta } from '../storage/rollups.js';
import type { VerificationStore } from '../storage/types.js';
import { ColumnsBuilder, NO_COLUMNS, type DimsSlot, type VerificationColumns } from '../storage/verification-columns.js';

/** Where the recorder reports failures: the server's logger, or the writer thread's messages to it. */
export interface RecorderLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Counters since start, for GET /metrics. */
export interface RecorderStats {
  /** Records stored. */
  readonly written: number;
  /** Records the store refused (logged): Redis unreachable, say. */
  readonly failed: number;
  /** Records not taken because the store fell behind, or lost with a failed writer thread. */
  readonly dropped: number;
  /** Recorded and not yet stored. */
  readonly pending: number;
  /** Whether a writer thread does the writing (false: on the event loop). */
  readonly onThread: boolean;
}

/** What verifyKey records into and shutdown drains: this class, or the thread that runs it (recorder-thread.ts). */
export interface Recorder {
  /** `slot`: the caller's slot for the record's dimensions, when it keeps one (storage/verification-columns.ts). */
  record(record: VerificationRecord, slot?: DimsSlot): void;
  /** Resolves when everything recorded so far is stored, rollup increments included. */
  flush(): Promise<void>;
  close(): Promise<void>;
  /** Records dropped because the store fell behind (since start). */
  readonly dropped: number;
  stats(): RecorderStats;
}

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

const MINUTE_ONLY: readonly RollupGranularity[] = ['minute'];
const COARSE: readonly RollupGranularity[] = ['hour', 'day', 'month'];

/** Pruning runs at most this often. */
const PRUNE_EVERY_MS = 60_000;
const MINUTE_MS = 60_000;
/** Held increments of one granularity handed over at once beyond this many (bounds memory). */
const MAX_HELD = 200_000;

export class VerificationRecorder implements Recorder {
  /** Records given one at a time; made on the first (the writer thread hands columns instead). */
  private builder: ColumnsBuilder | null = null;
  /** Columns handed over whole, not yet written. */
  private queued: VerificationColumns[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxPending: number;
  private readonly rollupRetentionMs: number | undefined;
  private readonly now: () => number;
  private lastPruneMs = -Infinity;
  /** Minute increments not yet handed to the store. */
  private minutes = new RollupSums();
  private lastMinutesMs: number;
  /** Hour, day and month increments not yet handed to the store. */
  private coarse = new RollupSums();
  /** Records dropped because the buffer was full (since start). */
  dropped = 0;
  written = 0;
  failed = 0;
  /** Records handed to the store and not yet answered. */
  private storing = 0;

  constructor(private readonly store: VerificationStore, private readonly log: RecorderLog, options: RecorderOptions = {}) {
    this.batchSize = options.batchSize ?? 2_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.rollupRetentionMs = options.rollupRetentionMs;
    this.now = options.now ?? Date.now;
    this.lastMinutesMs = this.now();
    this.timer = setInterval(() => {
      void this.write(false);
      if (this.rollupRetentionMs !== undefined && this.now() - this.lastPruneMs >= PRUNE_EVERY_MS) void this.prune();
    }, options.flushIntervalMs ?? 1_000);
    this.timer.unref();
  }

  record(record: VerificationRecord, slot?: DimsSlot): void {
    const builder = this.builder ??= new ColumnsBuilder(Math.min(this.batchSize, this.maxPending));
    if (builder.count >= this.maxPending) {
      this.dropped++;
      return;
    }
    builder.add(record, slot);
    if (builder.count === this.batchSize) void this.write(false);
  }

  /** Records already in columns (the writer thread's batches), written with the next write. */
  recordColumns(columns: VerificationColumns): void {
    if (columns.count === 0) return;
    this.queued.push(columns);
  }

  /**
   * Writes everything: what is buffered and every held rollup increment; resolves when it (and
   * any write before it) is stored.
   */
  flush(): Promise<void> {
    return this.write(true);
  }

  /** Writes what is buffered now (with the held coarse increments when due); resolves when stored. */
  writeBuffered(): Promise<void> {
    return this.write(false);
  }

  /** Writes the buffer, with the held increments that are due (or all of them). */
  private write(all: boolean): Promise<void> {
    const batches = this.queued;
    if (this.builder !== null && this.builder.count > 0) batches.push(this.builder.take());
    this.queued = [];
    let records = 0;
    for (const b of batches) records += b.count;
    // It runs from timers and from record(): a throw here must cost this batch (logged and
    // counted), never the process or the verification that happened to fill the buffer.
    try {
      return this.writeBatches(batches, records, all);
    } catch (err) {
      this.failed += records;
      this.log.error({ err, records }, 'verification records could not be stored and were dropped');
      return this.writing;
    }
  }

  private writeBatches(batches: readonly VerificationColumns[], records: number, all: boolean): Promise<void> {
    const increments: RollupDelta[] = [];
    for (const batch of batches) this.minutes.addColumns(batch, MINUTE_ONLY);
    const now = this.now();
    const minuteEnded = Math.floor(now / MINUTE_MS) !== Math.floor(this.lastMinutesMs / MINUTE_MS);
    if (all || minuteEnded || this.minutes.size >= MAX_HELD) {
      for (const minute of this.minutes.values()) {
        increments.push(minute);
        for (const granularity of COARSE) this.coarse.addTo(granularity, minute);
      }
      this.minutes = new RollupSums();
      this.lastMinutesMs = now;
    }
    if (all || minuteEnded || this.coarse.size >= MAX_HELD) {
      for (const coarse of this.coarse.values()) increments.push(coarse);
      this.coarse = new RollupSums();
    }
    if (records === 0 && increments.length === 0) return this.writing;
    // Writes are chained so batches reach the store in order; the increments go with the last.
    this.storing += records;
    this.writing = this.writing.then(async () => {
      for (let i = 0; i < batches.length - 1; i++) await this.store.appendColumns(batches[i]!, []);
      await this.store.appendColumns(batches.at(-1) ?? NO_COLUMNS, increments);
    }).then(() => {
      this.written += records;
    }, (err: unknown) => {
      this.failed += records;
      this.log.error({ err, records }, 'verification records could not be stored and were dropped');
    }).finally(() => {
      this.storing -= records;
    });
    return this.writing;
  }

  stats(): RecorderStats {
    return { written: this.written, failed: this.failed, dropped: this.dropped, pending: (this.builder?.count ?? 0) + this.queued.reduce((n, c) => n + c.count, 0) + this.storing, onThread: false };
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
