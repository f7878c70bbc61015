/**
 * Several keygate processes in distributed mode on one Redis (the run's shared cluster unless
 * given other nodes), as users deploy them behind a load balancer. Each file gets its own key
 * prefix, so its records and counters are its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { callKeygate, type CallResult } from './harness.js';
import { spawnKeygate, type ChildKeygate } from './process.js';
import { startRedisStandalone, type RedisStandalone } from './redis-servers.js';

export interface Replicas {
  readonly rootKey: string;
  readonly keyPrefix: string;
  readonly processes: readonly ChildKeygate[];
  /** A call through replica `i` (modulo the count). */
  call<T = any>(i: number, procedure: string, body: unknown): Promise<CallResult<T>>;
  stop(): Promise<void>;
}

/** `envOf(i)` adds settings of replica `i` alone (a different Redis user, say). */
export async function startReplicas(count: number, env: Record<string, string> = {}, envOf: (i: number) => Record<string, string> = () => ({})): Promise<Replicas> {
  const rootKey = `replicas-root-${randomBytes(12).toString('hex')}`;
  const keyPrefix = `kg-test-${randomBytes(4).toString('hex')}:`;
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-replicas-'));
  const base = {
    REDIS_CLUSTER_NODES: inject('redisClusterNodes'), REDIS_KEY_PREFIX: keyPrefix, ROOT_KEY: rootKey,
    DATA_DIR: dataDir, ...env,
  };
  const processes: ChildKeygate[] = [];
  try {
    for (let i = 0; i < count; i++) processes.push(await spawnKeygate({ ...base, ...envOf(i) }));
  } catch (err) {
    await Promise.all(processes.map((p) => p.kill()));
    throw err;
  }
  return {
    rootKey,
    keyPrefix,
    processes,
    call: (i, procedure, body) => callKeygate(processes[i % processes.length]!.url, `/v2/${procedure}`, body, { rootKey }),
    async stop() {
      await Promise.all(processes.map((p) => p.kill()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `data` of a 200 answer; anything else fails the test with the answer shown. */
export async function ok<T = any>(answer: Promise<CallResult<T>>): Promise<any> {
  const res = await answer;
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as any).data;
}

/**
 * For a test file that stops and starts Redis under a keygate: a persistent standalone Redis of its
 * own (AOF, as production Redis is: what was acknowledged is there after a restart) and one replica
 * on it at the default settings, started before the file's tests and stopped after them.
 */
export function useReplicaOnOwnRedis(): { readonly redis: RedisStandalone; readonly r: Replicas } {
  const started: { redis?: RedisStandalone; r?: Replicas } = {};
  beforeAll(async () => {
    started.redis = await startRedisStandalone({ persistent: true });
    started.r = await startReplicas(1, { REDIS_CLUSTER_NODES: '', REDIS_URL: started.redis.url });
  }, 60_000);
  afterAll(async () => {
    await started.r?.stop();
    await started.redis?.stop(true);
  });
  return {
    get redis() { return started.redis!; },
    get r() { return started.r!; },
  };
}
