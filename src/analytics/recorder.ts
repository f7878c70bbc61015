/**
 * Records verification outcomes off the request path: verifyKey only pushes a record into an
 * in-memory buffer (no I/O, no await), and a timer writes the buffer to the store in one batch.
 * The buffer is bounded: if the store falls behind by more than `maxPending` records, new ones
 * are dropped and counted rather than letting memory grow or slowing verification. A write the
 * store refuses (Redis unreachable for a while) is kept and tried again at every flush, before
 * anything newer, with the same call ids each time, so a try that did land counts once (stores
 * say how: VerificationStore.appendColumns); kept writes are bounded (`maxRefused` records, for
 * at most MAX_REFUSED_MS), beyond which they are counted as failed.
 *
 * Rollups: the store adds the increments the recorder hands it with the records. Increments are
 * summed here per minute and become due when a UTC minute ends: the minute rows of the minute
 * that ended, each going out with the hour, day and month increments it makes. So each row is
 * written at most once a minute, whatever the number of verifications it counts (rewriting a key's
 * rows with every batch would be most of the work when many keys are verified). Sooner when many
 * are held (MAX_HELD), and all at every explicit flush() and at close. Due rows go out a slice
 * with each write over the next DRAIN_MS, not all with one: with many keys they are hundreds of
 * milliseconds of store work, which in one piece stalls whatever shares the writer's core (the
 * event loop, embedded) or keeps the store busy (Redis, while every replica's rate limits wait).
 * The coarse increments are made as their slice goes out, not when the minute ends, for the
 * same reason.
 * The price: a crash (not a graceful stop) loses the held and due sums from the rollup tables
 * (raw records are written every second); analytics queries flush first (see the
 * getVerifications route), so an answer counts every verification this process made before it.
 *
 * With `rollupRetentionMs`, the
 * recorder also removes, about once a minute, the rollup buckets no analytics query may read any
 * more (those before the bucket holding now − retention), so rollups stay bounded by time.
 */
import { randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '../errors/api-error.js';
import type { RollupGranularity, VerificationRecord } from '../storage/records.js';
import { bucketStart, GRANULARITIES, RollupSums, type RollupDelta } from '../storage/rollups.js';
import { APPEND_RETRY_MS, type VerificationStore } from '../storage/types.js';
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
  /**
   * Records lost to a store that kept refusing them (logged). A refused write (Redis unreachable,
   * say) is kept and tried again every flush; only beyond the buffer's bound, or still refused at
   * close, is it given up and counted here.
   */
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
  /** Records of refused writes kept to be tried again (default 200,000). */
  readonly maxRefused?: number;
  /** How long rollup buckets are kept (the analytics look-back); unset: never pruned. */
  readonly rollupRetentionMs?: number;
  /** The clock pruning is decided by. */
  readonly now?: () => number;
}

const MINUTE_ONLY: readonly RollupGranularity[] = ['minute'];
/** The granularities a minute row also adds to. */
const COARSE: readonly RollupGranularity[] = ['hour', 'day', 'month'];

/** Pruning runs at most this often. */
const PRUNE_EVERY_MS = 60_000;
const MINUTE_MS = 60_000;
/** Held minute rows become due at once beyond this many (bounds memory). */
const MAX_HELD = 200_000;
/** Due rows are spread over this long (well within the minute before the next are due). */
const DRAIN_MS = 20_000;
/** Due minute rows per write at least (each is four increments): small sets go out whole, at once. */
const MIN_SLICE = 125;

const byDigest = (a: RollupDelta, b: RollupDelta): number => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0);

/** One write to the store, kept while the store refuses it. */
interface Write {
  readonly batches: readonly VerificationColumns[];
  readonly increments: readonly RollupDelta[];
  readonly records: number;
  /** With the batch's index, sent with every try (VerificationStore.appendColumns), so a try that did land counts once. */
  readonly callId: string;
  /** Batches stored so far (a retry goes on from there). */
  landed: number;
  /** When the store first refused it (0: not yet). */
  firstRefusedMs: number;
}

/** Makes this process's write ids its own across the deployment and across restarts. */
const RUN_ID = randomBytes(9).toString('base64url');
/** Writes made in this process (every recorder), for their call ids. */
let writeCount = 0;
/** How long a refused write is tried again: while the store still knows its call ids. */
const MAX_REFUSED_MS = APPEND_RETRY_MS;

/** The store could not be reached (stores say so with ServiceUnavailableError): it may take the write later. */
const isUnreachable = (err: unknown): boolean => err instanceof ServiceUnavailableError;

export class VerificationRecorder implements Recorder {
  /** Records given one at a time; made on the first (the writer thread hands columns instead). */
  private builder: ColumnsBuilder | null = null;
  /** Columns handed over whole, not yet written. */
  private queued: VerificationColumns[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxPending: number;
  private readonly maxRefused: number;
  private readonly rollupRetentionMs: number | undefined;
  private readonly now: () => number;
  private lastPruneMs = -Infinity;
  /** Minute increments held, not yet due. */
  private minutes = new RollupSums();
  private lastMinutesMs: number;
  /** Minute rows due, oldest first, from `dueAt` on; handed to the store a slice per write. */
  private due: RollupDelta[] = [];
  private dueAt = 0;
  /** When every due increment is to be out, and when the last slice was taken. */
  private drainByMs = 0;
  private lastSliceMs = 0;
  /** Records dropped because the buffer was full (since start). */
  dropped = 0;
  written = 0;
  failed = 0;
  /** Records handed to the store and not yet answered. */
  private storing = 0;
  /** Writes the store refused (Redis unreachable, say), oldest first, to be tried again. */
  private refused: Write[] = [];
  private refusedRecords = 0;

  constructor(private readonly store: VerificationStore, private readonly log: RecorderLog, options: RecorderOptions = {}) {
    this.batchSize = options.batchSize ?? 2_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.maxRefused = options.maxRefused ?? 200_000;
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
    // Records handed to a store that has not answered count too: a store falling behind must not
    // grow the chain of writes waiting for it without bound.
    if (builder.count + this.storing >= this.maxPending) {
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

  /** Writes what is buffered now, with a slice of the due rollup rows; resolves when stored. */
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
    for (const batch of batches) this.minutes.addColumns(batch, MINUTE_ONLY);
    const now = this.now();
    const minuteEnded = Math.floor(now / MINUTE_MS) !== Math.floor(this.lastMinutesMs / MINUTE_MS);
    const handOver = all || minuteEnded || this.minutes.size >= MAX_HELD;
    if (handOver && this.minutes.size > 0) {
      const due = this.due.slice(this.dueAt);
      for (const minute of this.minutes.values()) due.push(minute);
      // In key order: a slice then touches neighbouring rows (in LMDB, a few pages per commit
      // instead of a page per row copied in every slice's transaction).
      due.sort(byDigest);
      this.due = due;
      this.dueAt = 0;
      this.drainByMs = now + DRAIN_MS;
      this.lastSliceMs = now;
    }
    if (handOver) {
      this.minutes = new RollupSums();
      this.lastMinutesMs = now;
    }
    const increments = this.takeDue(all, now);
    if (records === 0 && increments.length === 0) {
      // Nothing new: refused writes are still tried again (every tick, and at a flush).
      if (this.refused.length > 0) this.writing = this.writing.then(async () => { await this.retryRefused(); });
      return this.writing;
    }
    const write: Write = { batches, increments, records, callId: `${RUN_ID}.${(writeCount++).toString(36)}`, landed: 0, firstRefusedMs: 0 };
    // Writes are chained so batches reach the store in order; refused ones are tried again first.
    this.storing += records;
    this.writing = this.writing.then(async () => {
      if (!(await this.retryRefused())) return this.refuse(write, null);
      try {
        await this.append(write);
        this.written += records;
      } catch (err) {
        this.refuse(write, err);
      }
    }).finally(() => {
      this.storing -= records;
    });
    return this.writing;
  }

  /**
   * The increments this write carries: due minute rows (all of them when asked or past
   * `drainByMs`, else an even share of what is left for the time since the last slice, at least
   * MIN_SLICE), each with its hour, day and month increments.
   */
  private takeDue(all: boolean, now: number): RollupDelta[] {
    const left = this.due.length - this.dueAt;
    if (left === 0) return [];
    let n = left;
    // A clock stepped back leaves no time to share out: then all of it, as past the deadline.
    const span = this.drainByMs - this.lastSliceMs;
    if (!all && now < this.drainByMs && span > 0) {
      const share = Math.ceil(left * Math.max(0, now - this.lastSliceMs) / span);
      n = Math.min(left, Math.max(MIN_SLICE, share));
    }
    this.lastSliceMs = now;
    const slice: RollupDelta[] = [];
    for (let i = this.dueAt; i < this.dueAt + n; i++) {
      const minute = this.due[i]!;
      slice.push(minute);
      for (const granularity of COARSE) slice.push({ ...minute, granularity, time: bucketStart(granularity, minute.time) });
    }
    this.dueAt += n;
    if (this.dueAt === this.due.length) {
      this.due = [];
      this.dueAt = 0;
    }
    return slice;
  }

  /**
   * One write: its batches in order, the increments with the last, each batch with its own call
   * id every try; batches that landed on an earlier try are not sent again.
   */
  private async append(write: Write): Promise<void> {
    const { batches, increments, callId } = write;
    const last = Math.max(0, batches.length - 1);
    for (let i = write.landed; i <= last; i++) {
      await this.store.appendColumns(batches[i] ?? NO_COLUMNS, i === last ? increments : [], `${callId}.b${i}`);
      write.landed = i + 1;
    }
  }

  /** Tries the refused writes again, oldest first; false while the store still refuses them. */
  private async retryRefused(): Promise<boolean> {
    while (this.refused.length > 0) {
      const write = this.refused[0]!;
      if (this.now() - write.firstRefusedMs > MAX_REFUSED_MS) {
        this.giveUp(this.refused.shift()!, 'verification records refused for too long were dropped');
        continue;
      }
      try {
        await this.append(write);
      } catch (err) {
        if (isUnreachable(err)) return false;
        // Refused for another reason now: it would only hold back the writes behind it.
        this.giveUp(this.refused.shift()!, 'verification records kept for another try could not be stored and were dropped', err);
        continue;
      }
      this.refused.shift();
      this.refusedRecords -= write.records;
      this.written += write.records;
      if (this.refused.length === 0) this.log.warn({}, 'verification records refused earlier are now stored');
    }
    return true;
  }

  /**
   * A write the store refused (`err`; null when it was not tried, the store refusing older ones).
   * Kept for another try only when the store was unreachable (anything else would fail again
   * and hold back every later write), and only up to `maxRefused` records: beyond, the oldest
   * kept writes are given up, logged and counted as failed.
   */
  private refuse(write: Write, err: unknown): void {
    if (err !== null && !isUnreachable(err)) {
      this.failed += write.records;
      this.log.error({ err, records: write.records }, 'verification records could not be stored and were dropped');
      return;
    }
    if (err !== null && this.refused.length === 0) this.log.error({ err, records: write.records }, 'verification records could not be stored; they are kept and tried again');
    write.firstRefusedMs ||= this.now();
    this.refused.push(write);
    this.refusedRecords += write.records;
    while (this.refusedRecords > this.maxRefused && this.refused.length > 1) {
      this.giveUp(this.refused.shift()!, 'verification records were refused while more waited than are kept, and were dropped');
    }
  }

  private giveUp(write: Write, message: string, err?: unknown): void {
    this.refusedRecords -= write.records;
    this.failed += write.records;
    this.log.error({ ...(err === undefined ? {} : { err }), records: write.records }, message);
  }

  /** Records refused by the store and kept to be tried again. */
  get refusedPending(): number {
    return this.refusedRecords;
  }

  stats(): RecorderStats {
    const pending = (this.builder?.count ?? 0) + this.queued.reduce((n, c) => n + c.count, 0) + this.storing + this.refusedRecords;
    return { written: this.written, failed: this.failed, dropped: this.dropped, pending, onThread: false };
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
    if (this.refusedRecords > 0) {
      this.log.error({ records: this.refusedRecords }, 'verification records the store still refused at shutdown were dropped');
      this.failed += this.refusedRecords;
      this.refused = [];
      this.refusedRecords = 0;
    }
    if (this.dropped > 0) this.log.warn({ dropped: this.dropped }, 'verification records were dropped while the store fell behind');
  }
}
