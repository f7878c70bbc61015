/**
 * The storage the command-line tool works on: the LMDB folder in the embedded mode, Redis in the
 * distributed mode (where its writes also evict the caches of running replicas).
 */
import type { Config } from '../config.js';
import { createLogger } from '../obs/log.js';
import { openLmdbStorage } from '../storage/lmdb/open.js';
import type { Storage } from '../storage/types.js';

export async function openToolStorage(config: Config): Promise<{ storage: Storage; close(): Promise<void> }> {
  if (config.redis) {
    const { openRedisStorageForTools } = await import('./tool-storage-redis.js');
    return openRedisStorageForTools(config, config.redis, createLogger('warn', process.stderr));
  }
  const storage = openLmdbStorage(config.dataDir);
  return { storage, close: () => storage.close() };
}
