/**
 * The recorder of both backends: verifyKey's records are buffered here and handed, ten times a
 * second, to a thread of their own that writes them and their rollups (recorder-worker.ts).
 * Those writes are a large part of the work when many keys are verified (embedded: a
 * read-modify-write of a rollup row per key and minute, inside LMDB's write transaction;
 * distributed: building the append scripts' arguments); on the writer thread they use another
 * core instead of the event loop's. A single thread, not the piscina pool: batches must be
 * written in order, and the held rollup increments are state.
 *
 * The buffer is bounded like the inline recorder's: records posted to the thread and not yet
 * written count against `maxPending`, so a store that falls behind drops (and counts) new records
 * instead of growing memory. Should the thread die, what it had not written is lost (logged) and
 * recording goes on inline on the event loop.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../obs/log.js';
import type { VerificationRecord } from '../storage/records.js';
import type { VerificationStore } from '../storage/types.js';
import { workerEntry } from '../workers/entry.js';
import { VerificationRecorder, type Recorder, type RecorderStats } from './recorder.js';
import type { FromWorker, RecorderWorkerData, ToWorker } from './recorder-worker.js';
import { ColumnsBuilder, transferables, type DimsSlot } from '../storage/verification-columns.js';

/**
 * Records handed to the thread at most at once; otherwise a batch is HAND_OVER_MS of records. The
 * batch's arrays are moved to the thread, not copied.
 */
const HAND_OVER_RECORDS = 65_536;

/**
 * How often the buffer goes to the thread. Where the writer shares a core with the event loop, the
 * scheduler lets a busy writer run for whole time slices (milliseconds) before the event loop gets
 * the core back: a second's records written in one burst delayed every request that arrived
 * during it. A tenth of a second's records is a burst short enough to keep the tail near the
 * median, and still few enough batches that the writer's per-batch work (a transaction, a script
 * call) stays small beside its per-record work (bench/README.md, "The tail at a fixed rate").
 */
const HAND_OVER_MS = 100;

export interface ThreadRecorderOptions extends RecorderWorkerData {
  readonly flushIntervalMs?: number;
  readonly batchSize?: number;
  readonly maxPending?: number;
}

export class ThreadRecorder implements Recorder {
  private readonly buffer: ColumnsBuilder;
  /** Records posted to the thread and not yet acknowledged as written. */
  private unacknowledged = 0;
  /** Records the thread keeps to try again (the store refused them), as of its last message. */
  private threadRefused = 0;
  private readonly worker: Worker;
  private readonly timer: NodeJS.Timeout;
  private readonly batchSize: number;
  private readonly maxPending: number;
  private readonly waiting = new Map<number, () => void>();
  private nextId = 1;
  /** Set when the thread died: recording goes on here. */
  private inline: VerificationRecorder | null = null;
  private closed = false;
  dropped = 0;
  /** The thread's own counts, as of its last acknowledgement. */
  private threadWritten = 0;
  private threadFailed = 0;

  constructor(private readonly store: VerificationStore, private readonly log: Logger, private readonly options: ThreadRecorderOptions) {
    this.batchSize = options.batchSize ?? HAND_OVER_RECORDS;
    this.maxPending = options.maxPending ?? 200_000;
    this.buffer = new ColumnsBuilder(this.batchSize);
    const workerData: RecorderWorkerData = {
      store: options.store, verificationsRetained: options.verificationsRetained, rollupRetentionMs: options.rollupRetentionMs,
    };
    this.worker = new Worker(workerEntry('analytics/recorder-worker.js'), { workerData, name: 'keygate analytics writer' });
    this.worker.on('message', (message: FromWorker) => this.received(message));
    this.worker.on('error', (err) => this.log.error({ err }, 'the analytics writer thread failed'));
    this.worker.on('exit', (code) => this.exited(code));
    this.timer = setInterval(() => this.post(), options.flushIntervalMs ?? HAND_OVER_MS);
    this.timer.unref();
  }

  record(record: VerificationRecord, slot?: DimsSlot): void {
    if (this.inline) return this.inline.record(record);
    if (this.buffer.count + this.unacknowledged >= this.maxPending) {
      this.dropped++;
      return;
    }
    this.buffer.add(record, slot);
    if (this.buffer.full) this.post();
  }

  flush(): Promise<void> {
    if (this.inline) return this.inline.flush();
    this.post();
    // Resolved only once this thread's reads see what the writer thread committed.
    return this.request('flush').then(() => this.store.seeOtherThreadsWrites?.());
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (this.closed) return;
    if (!this.inline) {
      this.post();
      await this.request('close');
    }
    // Closed first, so that the thread's exit is not taken for a failure.
    this.closed = true;
    await this.worker.terminate();
    await this.inline?.close();
    const dropped = this.dropped + (this.inline?.dropped ?? 0);
    if (dropped > 0) this.log.warn({ dropped }, 'verification records were dropped while the store fell behind');
  }

  stats(): RecorderStats {
    const inline = this.inline?.stats();
    return {
      written: this.threadWritten + (inline?.written ?? 0),
      failed: this.threadFailed + (inline?.failed ?? 0),
      dropped: this.dropped + (inline?.dropped ?? 0),
      pending: this.buffer.count + this.unacknowledged + this.threadRefused + (inline?.pending ?? 0),
      onThread: this.inline === null,
    };
  }

  private post(): void {
    if (this.buffer.count === 0 || this.inline) return;
    const batch = this.buffer.take();
    this.unacknowledged += batch.count;
    this.worker.postMessage({ type: 'records', batch } satisfies ToWorker, transferables(batch));
  }

  private request(type: 'flush' | 'close'): Promise<void> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ type, id } satisfies ToWorker);
    });
  }

  private received(message: FromWorker): void {
    if (message.type === 'written') {
      this.unacknowledged -= message.count;
      this.threadWritten = message.written;
      this.threadFailed = message.failed;
      this.threadRefused = message.refused;
    }
    else if (message.type === 'done') this.settle(message.id);
    else this.log[message.level](message.obj, message.msg);
  }

  private settle(id: number): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.();
  }

  private exited(code: number): void {
    if (this.closed) return;
    const lost = this.unacknowledged + this.threadRefused;
    this.log.error({ code, lost }, 'the analytics writer thread stopped; verification records are written on the event loop from now on');
    this.dropped += lost;
    this.unacknowledged = 0;
    this.threadRefused = 0;
    this.inline = new VerificationRecorder(this.store, this.log, { rollupRetentionMs: this.options.rollupRetentionMs, maxPending: this.maxPending });
    if (this.buffer.count > 0) this.inline.recordColumns(this.buffer.take());
    // Whoever waits for a flush gets the inline recorder's, which holds everything still known.
    for (const id of [...this.waiting.keys()]) {
      const resolve = this.waiting.get(id)!;
      this.waiting.delete(id);
      void this.inline.flush().then(resolve);
    }
  }
}
