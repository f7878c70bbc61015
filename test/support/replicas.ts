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
import { cli, startRedisStandalone, type RedisStandalone } from './redis-servers.js';

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

interface OnOwnRedis { readonly redis: RedisStandalone; readonly r: Replicas }

/**
 * A standalone Redis of the file's own and replicas on it, started by `start` before the file's
 * tests (it stores each as soon as it runs, so a failed start still stops what did start) and
 * stopped after them.
 */
function useOwnRedis(start: (started: { redis?: RedisStandalone; r?: Replicas }) => Promise<void>): OnOwnRedis {
  const started: { redis?: RedisStandalone; r?: Replicas } = {};
  beforeAll(() => start(started), 60_000);
  afterAll(async () => {
    await started.r?.stop();
    await started.redis?.stop(true);
  });
  return {
    get redis() { return started.redis!; },
    get r() { return started.r!; },
  };
}

/**
 * For a test file that stops and starts Redis under a keygate: a persistent standalone Redis of its
 * own (AOF, as production Redis is: what was acknowledged is there after a restart) and one replica
 * on it at the default settings.
 */
export function useReplicaOnOwnRedis(): OnOwnRedis {
  return useOwnRedis(async (started) => {
    started.redis = await startRedisStandalone({ persistent: true });
    started.r = await startReplicas(1, { REDIS_CLUSTER_NODES: '', REDIS_URL: started.redis.url });
  });
}

/**
 * Two replicas on a standalone Redis of the file's own, replica 0 connected as a Redis user that
 * may not PUBLISH: its writes succeed and its invalidation messages never go out (as when a
 * replica loses its connection right after a write), until `allowPublish()`.
 */
export function useReplicasOneWithoutPublish(env: Record<string, string>): OnOwnRedis & { allowPublish(): void } {
  const password = `nopublish-${randomBytes(8).toString('hex')}`;
  const own = useOwnRedis(async (started) => {
    const redis = started.redis = await startRedisStandalone();
    cli(redis.port, ['ACL', 'SETUSER', 'nopublish', 'on', `>${password}`, '~*', '&*', '+@all', '-publish']);
    started.r = await startReplicas(2, { REDIS_CLUSTER_NODES: '', REDIS_URL: redis.url, ...env },
      (i): Record<string, string> => (i === 0 ? { REDIS_URL: `redis://nopublish:${password}@127.0.0.1:${redis.port}` } : {}));
  });
  return {
    get redis() { return own.redis; },
    get r() { return own.r; },
    allowPublish() { cli(own.redis.port, ['ACL', 'SETUSER', 'nopublish', '+publish']); },
  };
}
