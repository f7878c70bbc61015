import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    // The run's log folder, searched for every issued key at the end (log-scan-global-setup.ts;
    // first, so that its teardown runs last), and a standalone redis-server and a 3-master cluster
    // for the run (test/support/redis-servers.ts).
    globalSetup: ['test/support/log-scan-global-setup.ts', 'test/support/redis-global-setup.ts'],
    // Real servers, real files, child processes: forks keep native addons (uWS, LMDB) isolated.
    pool: 'forks',
    // Most of a file's time is spent waiting on keygate child processes and Redis, not on its own
    // CPU: more files than cores run at once (vitest's default is one fewer than the cores).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // A worker keeps its imported modules from one file to the next: importing them anew for every
    // file cost more than many files' tests. Files start their own servers and leave no state behind.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'embedded', include: ['test/**/*.test.ts'] } },
      // Every procedure in the distributed mode too: the official-SDK suites again, with each
      // harness keygate on the run's Redis Cluster instead of LMDB (test/support/harness.ts).
      { extends: true, test: { name: 'sdk-on-redis-cluster', include: ['test/sdk/**/*.test.ts'], env: { KEYGATE_HARNESS_STORE: 'redis-cluster' } } },
    ],
  },
});
