/**
 * Entry of the analytics writer thread (recorder-thread.ts): verification records and rollups
 * are written here, on a thread of their own, not on the event loop that answers verifyKey, from
 * the columns the event loop hands over (no object per record). It opens the store itself
 * (embedded: the same LMDB folder, lmdb shares one environment between the threads of a process;
 * distributed: a Redis connection of its own) and runs the ordinary VerificationRecorder over it,
 * so batching, held increments and pruning are exactly what they are inline.
 *
 * Messages in: { batch } (storage/verification-columns.ts) in order, { flush, id }, { close, id }.
 * Out: { written, count } when a batch is stored, { done, id }, and { log } for what the recorder reports.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createRedis, guardedStore, waitUntilReady, type RedisSettings } from '../redis/client.js';
import { openLmdbStorage } from '../storage/lmdb/open.js';
import { storageKeys } from '../storage/redis/keys.js';
import { RedisVerificationStore } from '../storage/redis/verifications.js';
import type { VerificationStore } from '../storage/types.js';
import { VerificationRecorder, type RecorderLog } from './recorder.js';
import type { VerificationColumns } from '../storage/verification-columns.js';

/** Where the records go: what the thread opens (plain data: it crosses to the thread). */
export type RecorderStoreSpec =
  | { readonly kind: 'lmdb'; readonly dataDir: string }
  | { readonly kind: 'redis'; readonly settings: RedisSettings };

export interface RecorderWorkerData {
  readonly store: RecorderStoreSpec;
  readonly verificationsRetained: number;
  readonly rollupRetentionMs: number;
}

export type ToWorker =
  | { readonly type: 'records'; readonly batch: VerificationColumns }
  | { readonly type: 'flush' | 'close'; readonly id: number };

export type FromWorker =
  /**
   * A batch was handed to the store: stored, kept to be tried again (`refused` counts the records
   * kept now), or given up (`failed` counts those, since start).
   */
  | { readonly type: 'written'; readonly count: number; readonly written: number; readonly failed: number; readonly refused: number }
  | { readonly type: 'done'; readonly id: number }
  | { readonly type: 'log'; readonly level: 'error' | 'warn'; readonly obj: object; readonly msg: string };

const port = parentPort!;
const data = workerData as RecorderWorkerData;
const post = (message: FromWorker): void => port.postMessage(message);
const log: RecorderLog = {
  error: (obj, msg) => post({ type: 'log', level: 'error', obj, msg }),
  warn: (obj, msg) => post({ type: 'log', level: 'warn', obj, msg }),
};

/** How long writes wait for the thread's first Redis connection before they are tried anyway. */
const FIRST_CONNECT_WAIT_MS = 10_000;

function openStore(spec: RecorderStoreSpec): { store: VerificationStore; ready: Promise<void>; close(): Promise<void> } {
  if (spec.kind === 'lmdb') {
    const storage = openLmdbStorage(spec.dataDir, { verificationsRetained: data.verificationsRetained });
    return { store: storage.verifications, ready: Promise.resolve(), close: () => storage.close() };
  }
  // The same client settings as the server's own connections, so no offline queue: without
  // waiting for the first connection, the first batches (a server verifying keys right after it
  // starts) would fail with "Stream isn't writeable" and be dropped. Later, while Redis is
  // unreachable, appends fail and the recorder keeps those batches and tries them again, as inline.
  const client = createRedis(spec.settings, 'analytics', log);
  // Guarded as the server's stores are: an unreachable Redis is a ServiceUnavailableError, which
  // the recorder keeps the write for.
  const store = guardedStore(new RedisVerificationStore(client, storageKeys(spec.settings.keyPrefix), data.verificationsRetained));
  const ready = waitUntilReady(client, 'Redis', FIRST_CONNECT_WAIT_MS).catch(() => {});
  return { store, ready, close: async () => { client.disconnect(); } };
}

const storage = openStore(data.store);
// Made once the store is ready (its timer writes too). Batches arrive already gathered by the
// main thread: this recorder's own timer only hands over held increments and prunes, and its
// batch size never splits one.
const ready = storage.ready.then(() => new VerificationRecorder(storage.store, log, {
  rollupRetentionMs: data.rollupRetentionMs, batchSize: Number.MAX_SAFE_INTEGER, maxPending: Number.MAX_SAFE_INTEGER,
}));

// Every message waits on the same promise, so they are handled in the order they came.
port.on('message', (message: ToWorker) => void ready.then(async (recorder) => {
  switch (message.type) {
    case 'records': {
      recorder.recordColumns(message.batch);
      // Chained by the recorder: batches are stored, and acknowledged, in order.
      await recorder.writeBuffered();
      post({ type: 'written', count: message.batch.count, written: recorder.written, failed: recorder.failed, refused: recorder.refusedPending });
      return;
    }
    case 'flush':
      await recorder.flush();
      post({ type: 'done', id: message.id });
      return;
    case 'close':
      await recorder.close();
      await storage.close();
      post({ type: 'done', id: message.id });
      return;
  }
}));
