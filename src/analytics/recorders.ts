/**
 * Which recorder writes verification records: the writer thread (recorder-thread.ts, the default),
 * or the event loop itself (recorder.ts), for a keygate given one CPU. There a second thread
 * cannot run beside the event loop, only instead of it, and its hand-overs (each batch copied to
 * another isolate, whose own collections come on top) cost more than the writing: on the event
 * loop a verification costs less CPU in all. The price is the tail: each batch's transaction runs
 * on the event loop in one piece (the LMDB store encodes the blocks a few at a time before it,
 * storage/lmdb/verifications.ts), and requests that arrive meanwhile wait for it.
 */
import type { Config } from '../config.js';
import type { Logger } from '../obs/log.js';
import type { VerificationStore } from '../storage/types.js';
import { VerificationRecorder, type Recorder } from './recorder.js';
import { ThreadRecorder } from './recorder-thread.js';
import type { RecorderWorkerData } from './recorder-worker.js';

/** How often the event loop's recorder writes what it gathered: as often as the writer thread gets a batch. */
const WRITE_EVERY_MS = 100;
/** Records written by the timer only, below this (a batch of 100 ms at any rate keygate reaches). */
const BATCH_RECORDS = 65_536;

export function startRecorder(config: Config, store: VerificationStore, where: RecorderWorkerData['store'], log: Logger): Recorder {
  const rollupRetentionMs = config.analyticsRetentionDays * 86_400_000;
  if (config.analyticsWriter === 'thread') return new ThreadRecorder(store, log, { store: where, verificationsRetained: config.verificationsRetained, rollupRetentionMs });
  return new VerificationRecorder(store, log, { flushIntervalMs: WRITE_EVERY_MS, batchSize: BATCH_RECORDS, rollupRetentionMs });
}
