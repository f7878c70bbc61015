/**
 * Records verification outcomes off the request path: verifyKey only pushes a record into an
 * in-memory buffer (no I/O, no await), and a timer writes the buffer to the store in one batch.
 * The buffer is bounded: if the store falls behind by more than `maxPending` records, new ones
 * are dropped and counted rather than letting memory grow or slowing verification.
 */
import type { Logger } from '../obs/log.js';
import type { VerificationRecord } from '../storage/records.js';
import type { VerificationStore } from '../storage/types.js';

export interface RecorderOptions {
  /** How often the buffer is written. */
  readonly flushIntervalMs?: number;
  /** A full batch is written at once, without waiting for the timer. */
  readonly batchSize?: number;
  readonly maxPending?: number;
}

export class VerificationRecorder {
  private buffer: VerificationRecord[] = [];
  private writing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxPending: number;
  /** Records dropped because the buffer was full (since start). */
  dropped = 0;

  constructor(private readonly store: VerificationStore, private readonly log: Logger, options: RecorderOptions = {}) {
    this.batchSize = options.batchSize ?? 2_000;
    this.maxPending = options.maxPending ?? 200_000;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1_000);
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

  /** Stops the timer and stores everything still buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.dropped > 0) this.log.warn({ dropped: this.dropped }, 'verification records were dropped while the store fell behind');
  }
}
