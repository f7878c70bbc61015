/**
 * Vitest global setup: one standalone redis-server and one 3-master Redis Cluster for the whole
 * run, on free loopback ports, stopped by pid at the end. Tests reach them through
 * `inject('redisUrl')` / `inject('redisClusterNodes')` and keep apart by key prefix.
 */
import type { TestProject } from 'vitest/node';
import { startRedisCluster, startRedisStandalone } from './redis-servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    redisClusterNodes: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const standalone = await startRedisStandalone();
  const cluster = await startRedisCluster(3);
  project.provide('redisUrl', standalone.url);
  project.provide('redisClusterNodes', cluster.nodes.join(','));
  return async () => {
    await cluster.stop();
    await standalone.stop();
  };
}
