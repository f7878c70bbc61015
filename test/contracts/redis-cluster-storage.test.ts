/** Every storage contract suite on the 3-master Redis Cluster of the global setup (redis-storage-runner.ts). */
import { runRedisStorageContracts } from './redis-storage-runner.js';

runRedisStorageContracts('cluster');
