/**
 * Entry of the analytics query thread (query-thread.ts): analytics.getVerifications runs here, so
 * no query, however heavy within its limits, holds the event loop that answers verifyKey. It opens
 * the store itself (embedded: the LMDB folder, whose environment lmdb shares between the threads
 * of a process; distributed: a Redis connection of its own) and runs one query at a time.
 *
 * Messages in: { id, sql, scope, now }. Out: { id, rows } or { id, refused: { kind, detail } } for
 * a query refused by its rules, or { id, fault } for anything else.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.js';
import { createLogger } from '../obs/log.js';
import { openLmdbStorage } from '../storage/lmdb/open.js';
import type { Storage } from '../storage/types.js';
import { runAnalyticsQuery, type QueryScope } from './query.js';
import { QueryError, type QueryErrorKind } from './sql/errors.js';

export interface QueryWorkerData { readonly config: Config }
export interface QueryMessage { readonly id: number; readonly sql: string; readonly scope: QueryScope; readonly now: number }
export type QueryAnswer =
  | { readonly id: number; readonly rows: Record<string, unknown>[] }
  | { readonly id: number; readonly refused: { readonly kind: QueryErrorKind; readonly detail: string } }
  | { readonly id: number; readonly fault: string };

const port = parentPort!;
const { config } = workerData as QueryWorkerData;

/** How long a query waits for the thread's Redis connection before it fails (the next one tries again). */
const CONNECT_TIMEOUT_MS = 15_000;

async function openStorage(): Promise<Storage> {
  if (!config.redis) return openLmdbStorage(config.dataDir, { verificationsRetained: config.verificationsRetained });
  // Loaded only in distributed mode; queries only read, so no record cache and nothing to publish.
  const [{ createRedis, waitUntilReady }, { openRedisStorage }] = await Promise.all([import('../redis/client.js'), import('../storage/redis/open.js')]);
  const client = createRedis(config.redis, 'analytics-queries', createLogger('warn', process.stderr));
  try {
    await waitUntilReady(client, 'Redis', CONNECT_TIMEOUT_MS);
  } catch (err) {
    client.disconnect();
    throw err;
  }
  return openRedisStorage(client, { keyPrefix: config.redis.keyPrefix, verificationsRetained: config.verificationsRetained });
}

// Opened once, on the first query; a failure to open is each query's fault until it succeeds.
let storage: Promise<Storage> | null = null;

port.on('message', (message: QueryMessage) => {
  storage ??= openStorage().catch((err: unknown) => {
    storage = null;
    throw err;
  });
  void storage
    .then((opened) => {
      // The answer counts what the writer thread committed before the query was sent (the route
      // flushes first); this thread may still hold an older snapshot of the folder.
      opened.verifications.seeOtherThreadsWrites?.();
      return runAnalyticsQuery(message.sql, message.scope, { storage: opened, config, now: () => message.now });
    })
    .then(
      (rows) => port.postMessage({ id: message.id, rows } satisfies QueryAnswer),
      (err: unknown) => port.postMessage(err instanceof QueryError
        ? { id: message.id, refused: { kind: err.kind, detail: err.detail } } satisfies QueryAnswer
        : { id: message.id, fault: err instanceof Error ? err.message : String(err) } satisfies QueryAnswer),
    );
});
