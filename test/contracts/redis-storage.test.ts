/** Every storage contract suite on the standalone Redis of the global setup (redis-storage-runner.ts). */
import { runRedisStorageContracts } from './redis-storage-runner.js';

runRedisStorageContracts('standalone');
