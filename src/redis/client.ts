/**
 * createRedis: the one place ioredis clients are made, with the options the distributed mode
 * relies on: no offline queue (a command while disconnected
 * fails at once instead of waiting), a command timeout (no request waits forever), masters only,
 * reconnection with capped backoff forever, so the service recovers by itself, and a circuit
 * breaker per master (a master that stopped answering costs one timeout, not one per request).
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { ServiceUnavailableError } from '../errors/api-error.js';
import { CircuitOpenError, guardCluster, guardStandalone } from './circuit-breaker.js';

export type RedisClient = Redis | Cluster;

export interface RedisSettings {
  /** `redis://host:port[/db]` for one Redis; exclusive with `clusterNodes`. */
  readonly url?: string;
  /** Seed nodes of a Redis Cluster. */
  readonly clusterNodes?: readonly { host: string; port: number }[];
  /** Longest a command may take before it fails. */
  readonly commandTimeoutMs: number;
  /** Prepended to every key keygate writes, so several deployments (or tests) can share a Redis. */
  readonly keyPrefix: string;
}

/** Reconnect after 50, 100, … ms, never waiting more than 1 s between attempts. */
const backoff = (attempt: number): number => Math.min(attempt * 50, 1_000);

function nodeOptions(settings: RedisSettings, name: string): RedisOptions {
  return {
    connectionName: `keygate:${name}`,
    enableOfflineQueue: false,
    commandTimeout: settings.commandTimeoutMs,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: backoff,
    // Pending commands of a dropped connection fail instead of being replayed: a script that may
    // have run must not run twice (a limit would be counted twice).
    autoResendUnfulfilledCommands: false,
    lazyConnect: false,
  };
}

/** Connection errors are logged at most this often per client (they repeat on every retry). */
const ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * A client for one purpose (`name` shows in CLIENT LIST): storage, limiter, pub/sub. Connection
 * errors go to `log` (throttled); commands fail on their own and become 503s where they are used.
 */
export function createRedis(settings: RedisSettings, name: string, log?: { warn(obj: object, msg: string): void }): RedisClient {
  const client = makeClient(settings, name);
  let lastLoggedMs = 0;
  client.on('error', (err: unknown) => {
    const now = Date.now();
    if (!log || now - lastLoggedMs < ERROR_LOG_INTERVAL_MS) return;
    lastLoggedMs = now;
    log.warn({ err, client: name }, 'Redis connection problem (retrying)');
  });
  return client;
}

function makeClient(settings: RedisSettings, name: string): RedisClient {
  if (settings.clusterNodes && settings.clusterNodes.length > 0) {
    const options: ClusterOptions = {
      enableOfflineQueue: false,
      scaleReads: 'master',
      redisOptions: nodeOptions(settings, name),
      clusterRetryStrategy: backoff,
      // Commands that meet a connection ioredis closed while refreshing its slot map are sent
      // again. That keeps a healthy cluster free of spurious 503s (without it they appear at start-up).
      // A script that had reached Redis may so arrive twice: the ones that write run once per call
      // (redis/scripts.ts, `once`), and a second arrival gets the first one's reply.
      retryDelayOnFailover: 100,
      retryDelayOnClusterDown: 100,
      retryDelayOnTryAgain: 100,
      maxRedirections: 4,
      slotsRefreshTimeout: 2_000,
      slotsRefreshInterval: 5_000,
    };
    const cluster = new Cluster([...settings.clusterNodes], options);
    guardCluster(cluster);
    return cluster;
  }
  if (!settings.url) throw new Error('createRedis needs a url or cluster nodes');
  const redis = new Redis(settings.url, nodeOptions(settings, name));
  guardStandalone(redis);
  return redis;
}

/**
 * Resolves once the client can take commands; rejects after `timeoutMs` with a clear message. A
 * Cluster is ready once it knows the slots, while its connection to each master may still be
 * opening; a pipeline sent then fails ("Connection is closed", which ioredis does not retry for
 * pipelines) and would trip that master's circuit. So this also waits, within the same time, for
 * every master's connection; one that fails or does not open by then is left to the breaker.
 */
export async function waitUntilReady(client: RedisClient, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  if (client.status !== 'ready') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        client.off('ready', onReady);
        reject(new Error(`${what} is not reachable (waited ${timeoutMs} ms); check REDIS_URL / REDIS_CLUSTER_NODES`));
      }, timeoutMs);
      const onReady = (): void => { clearTimeout(timer); resolve(); };
      client.once('ready', onReady);
    });
  }
  if (client instanceof Cluster) await mastersConnected(client, deadline - Date.now());
}

async function mastersConnected(cluster: Cluster, withinMs: number): Promise<void> {
  const opening = cluster.nodes('master').filter((node) => node.status !== 'ready');
  if (opening.length === 0 || withinMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<void>((resolve) => { timer = setTimeout(resolve, withinMs); });
  const listeners: (() => void)[] = [];
  // A connection that fails ('close', 'end': a master down) is not waited for any longer.
  const settled = ['ready', 'close', 'end'] as const;
  const opened = Promise.all(opening.map((node) => new Promise<void>((resolve) => {
    for (const event of settled) node.once(event, resolve);
    listeners.push(() => { for (const event of settled) node.off(event, resolve); });
  })));
  await Promise.race([opened, timeUp]);
  clearTimeout(timer);
  for (const off of listeners) off();
}

/**
 * Errors that mean Redis could not answer (down, unreachable, timed out, cluster slots not
 * served) rather than a bug: they become the 503 (service_unavailable).
 */
export function isUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof CircuitOpenError) return true;
  // A MOVED or ASK that reaches us is a redirect ioredis could not follow: the slot's owner is down.
  if (/^(MOVED|ASK) |Too many Cluster redirections/.test(err.message)) return true;
  const text = `${err.name} ${err.message}`;
  return /Command timed out|Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|CLUSTERDOWN|TRYAGAIN|MaxRetriesPerRequest|None of startup nodes|Failed to refresh slots|ClusterAllFailedError|LOADING|MASTERDOWN|enableOfflineQueue/i.test(text);
}

/** Runs a Redis operation; an unavailable Redis becomes ServiceUnavailableError (a 503). */
export async function guarded<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    if (isUnavailable(err)) throw new ServiceUnavailableError((err as Error).message, { cause: err });
    throw err;
  }
}

/**
 * Wraps every method of a store in `guarded`: an unreachable Redis becomes
 * ServiceUnavailableError, whichever store method met it. Other errors (DuplicateError) pass.
 */
export function guardedStore<T extends object>(store: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
    const method = (store as Record<string, unknown>)[name];
    if (name === 'constructor' || typeof method !== 'function') continue;
    wrapped[name] = (...args: unknown[]) => guarded(() => (method as (...a: unknown[]) => Promise<unknown>).apply(store, args));
  }
  return wrapped as T;
}
