/**
 * Which recorder writes verification records: the writer thread (recorder-thread.ts), or the
 * event loop itself (recorder.ts). On one CPU a second thread cannot run beside the event loop,
 * only instead of it: the woken writer gets the core for whole time slices while requests wait,
 * and the hand-over (each batch copied to another isolate, whose own collections come on top)
 * is work that writing on the event loop does not do at all. There the embedded store's writes
 * stay on the event loop, which encodes a batch's blocks a few at a time between requests
 * (storage/lmdb/verifications.ts). The Redis stores keep the thread unless told otherwise: the
 * event loop's share there was not measured.
 */
import { availableParallelism } from 'node:os';
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

/** Whether records go to the writer thread under `config.analyticsWriter`. */
export function writesOnThread(config: Config, store: RecorderWorkerData['store']): boolean {
  if (config.analyticsWriter !== 'auto') return config.analyticsWriter === 'thread';
  return store.kind !== 'lmdb' || availableParallelism() > 1;
}

export function startRecorder(config: Config, store: VerificationStore, where: RecorderWorkerData['store'], log: Logger): Recorder {
  const rollupRetentionMs = config.analyticsRetentionDays * 86_400_000;
  if (writesOnThread(config, where)) return new ThreadRecorder(store, log, { store: where, verificationsRetained: config.verificationsRetained, rollupRetentionMs });
  return new VerificationRecorder(store, log, { flushIntervalMs: WRITE_EVERY_MS, batchSize: BATCH_RECORDS, rollupRetentionMs });
}
