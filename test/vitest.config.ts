import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['test/**/*.test.ts'],
    // A standalone redis-server and a 3-master cluster for the run (test/support/redis-servers.ts).
    globalSetup: ['test/support/redis-global-setup.ts'],
    // Real servers, real files, child processes: forks keep native addons (uWS, LMDB) isolated.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
});
