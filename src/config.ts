/**
 * Settings: read once from the environment, validated, frozen. Nothing else reads process.env.
 * Each setting is documented in docs/settings.md, whose tables mirror loadConfig below
 * (test/unit/settings-doc.test.ts checks names and defaults).
 */
import { resolve } from 'node:path';

import type { RedisSettings } from './redis/client.js';

export type RatelimitFailMode = 'closed' | 'open';

export type LogFormat = 'json' | 'pretty';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  /** TCP port; 0 picks a free one (tests). */
  readonly port: number;
  readonly host: string;
  /** Folder holding the LMDB files. */
  readonly dataDir: string;
  /** When set, registered at start-up as a root key with every permission. Never logged. */
  readonly rootKey: string | undefined;
  /** Base of every `error.type` URL: `${docsUrl}/errors/...`. */
  readonly docsUrl: string;
  readonly logLevel: LogLevel;
  /** json: one JSON object per line; pretty: coloured lines for people; auto: pretty on a terminal. */
  readonly logFormat: LogFormat;
  /** GET /metrics (Prometheus) and the counting behind it. */
  readonly metrics: boolean;
  /** Largest accepted request body; larger bodies get 413. */
  readonly bodyLimitBytes: number;
  /** How many verification records are kept; the oldest beyond this are dropped. */
  readonly verificationsRetained: number;
  /** analytics.getVerifications: how many days back a query may read; rollups older are pruned. */
  readonly analyticsRetentionDays: number;
  /** How long audit events are kept (docs/audit-log.md); older ones are swept periodically. */
  readonly auditRetentionDays: number;
  /** Most rows one analytics query answers (a larger LIMIT is lowered to it, as Unkey does). */
  readonly analyticsMaxResultRows: number;
  /** Most stored rows (records or rollup rows) one analytics query may read: beyond, a 422. */
  readonly analyticsMaxRowsRead: number;
  /** Longest one analytics query may run: beyond, a 422. */
  readonly analyticsQueryTimeoutMs: number;
  /** Distributed mode when set (REDIS_URL or REDIS_CLUSTER_NODES); embedded LMDB otherwise. */
  readonly redis: RedisSettings | null;
  /** What a rate-limit check does when Redis cannot answer: deny (closed) or admit (open). */
  readonly ratelimitFailMode: RatelimitFailMode;
  /**
   * Distributed mode: replicas each key-record write must reach (Redis WAIT) before it is
   * acknowledged; 'auto' = as many as are online at that master, 0 = never wait.
   */
  readonly redisWaitReplicas: number | 'auto';
  /** Longest a write waits for its replicas; then the request answers 503. */
  readonly redisWaitTimeoutMs: number;
  /** Refuse to start when a Redis master has AOF off or its settings cannot be read. */
  readonly redisRequireAof: boolean;
  /** Distributed mode: entries of the in-process record cache, and how long one may live. */
  readonly cacheMaxEntries: number;
  /**
   * The dashboard session cookie: `auto` marks it Secure when a proxy says the client used HTTPS
   * (X-Forwarded-Proto); `always` marks it Secure on every answer (keygate behind TLS without such
   * a header). A Secure cookie is named with the `__Host-` prefix, which browsers bind to this host.
   */
  readonly sessionCookieSecure: 'auto' | 'always';
  /** Failed authentications one client address may make per minute (a burst of as many) before they are answered 429. */
  readonly authFailuresPerMinute: number;
  /** On SIGTERM/SIGINT: how long requests in flight may take before connections are closed. */
  readonly shutdownGraceMs: number;
  readonly cacheTtlMs: number;
  /** Worker threads verifying slow-hash migrated keys (src/workers/pool.ts), started at first need. */
  readonly hashWorkers: number;
  /** Where verification records are written (src/analytics/recorders.ts): a thread of their own, or the event loop. */
  readonly analyticsWriter: 'thread' | 'event-loop';
}

/** Shortest ROOT_KEY accepted: anything shorter is guessable. */
export const MIN_ROOT_KEY_LENGTH = 16;

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const text = (name: string, fallback: string): string => {
    const raw = env[name];
    return raw === undefined || raw === '' ? fallback : raw;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got '${raw}')`);
      return fallback;
    }
    return value;
  };

  const logLevel = text('LOG_LEVEL', 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}')`);
  const logFormatText = text('LOG_FORMAT', 'auto');
  if (!['auto', 'json', 'pretty'].includes(logFormatText)) problems.push(`LOG_FORMAT must be auto, json or pretty (got '${logFormatText}')`);
  // auto: people at a terminal read pretty lines; anything collecting stdout gets JSON.
  const logFormat: LogFormat = logFormatText === 'pretty' || (logFormatText === 'auto' && process.stdout.isTTY === true) ? 'pretty' : 'json';
  const metricsText = text('METRICS', 'on');
  if (metricsText !== 'on' && metricsText !== 'off') problems.push(`METRICS must be on or off (got '${metricsText}')`);

  const docsUrl = text('DOCS_URL', 'https://unkey.com/docs').replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s]+$/.test(docsUrl)) problems.push(`DOCS_URL must be an http(s) URL (got '${docsUrl}')`);

  const rootKey = env.ROOT_KEY === undefined || env.ROOT_KEY === '' ? undefined : env.ROOT_KEY;
  if (rootKey !== undefined && (rootKey.length < MIN_ROOT_KEY_LENGTH || /\s/.test(rootKey))) {
    // The value itself is never echoed: it is a secret.
    problems.push(`ROOT_KEY must be at least ${MIN_ROOT_KEY_LENGTH} characters without spaces`);
  }

  const redisUrl = text('REDIS_URL', '');
  const clusterText = text('REDIS_CLUSTER_NODES', '');
  if (redisUrl && clusterText) problems.push('set either REDIS_URL or REDIS_CLUSTER_NODES, not both');
  if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) problems.push(`REDIS_URL must be a redis:// or rediss:// URL`);
  const clusterNodes = clusterText === '' ? [] : clusterText.split(',').map((node) => node.trim()).map((node) => {
    const match = /^([^\s:]+):(\d{1,5})$/.exec(node);
    if (!match || Number(match[2]) > 65535) {
      problems.push(`REDIS_CLUSTER_NODES must be host:port,host:port,… (got '${node}')`);
      return { host: '', port: 0 };
    }
    return { host: match[1]!, port: Number(match[2]) };
  });
  const commandTimeoutMs = int('REDIS_COMMAND_TIMEOUT_MS', 250, 1, 60_000);
  const keyPrefix = text('REDIS_KEY_PREFIX', 'kg:');
  // Braces would make the prefix a hash tag: every key in one Cluster slot.
  if (/[{}]/.test(keyPrefix)) problems.push(`REDIS_KEY_PREFIX must not contain '{' or '}' (got '${keyPrefix}')`);
  const failMode = text('RATELIMIT_FAIL_MODE', 'closed') as RatelimitFailMode;
  if (failMode !== 'closed' && failMode !== 'open') problems.push(`RATELIMIT_FAIL_MODE must be closed or open (got '${failMode}')`);
  const waitText = text('REDIS_WAIT_REPLICAS', 'auto').trim();
  const waitReplicas = waitText === 'auto' ? 'auto' : /^\d{1,2}$/.test(waitText) && Number(waitText) <= 16 ? Number(waitText) : 'auto';
  if (waitText !== 'auto' && waitReplicas === 'auto') problems.push(`REDIS_WAIT_REPLICAS must be auto or a whole number from 0 to 16 (got '${waitText}')`);
  const requireAof = text('REDIS_REQUIRE_AOF', 'false');
  if (requireAof !== 'true' && requireAof !== 'false') problems.push(`REDIS_REQUIRE_AOF must be true or false (got '${requireAof}')`);
  const redis: RedisSettings | null = redisUrl ? { url: redisUrl, commandTimeoutMs, keyPrefix }
    : clusterNodes.length > 0 ? { clusterNodes, commandTimeoutMs, keyPrefix } : null;

  const analyticsWriter = text('ANALYTICS_WRITER', 'thread');
  if (analyticsWriter !== 'thread' && analyticsWriter !== 'event-loop') problems.push(`ANALYTICS_WRITER must be thread or event-loop (got '${analyticsWriter}')`);

  const cookieSecure = text('SESSION_COOKIE_SECURE', 'auto');
  if (cookieSecure !== 'auto' && cookieSecure !== 'always') problems.push(`SESSION_COOKIE_SECURE must be auto or always (got '${cookieSecure}')`);

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: text('HOST', '127.0.0.1'),
    dataDir: resolve(text('DATA_DIR', './data')),
    rootKey,
    docsUrl,
    logLevel,
    logFormat,
    metrics: metricsText === 'on',
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    verificationsRetained: int('VERIFICATIONS_RETAINED', 1_000_000, 100, 100_000_000),
    analyticsRetentionDays: int('ANALYTICS_RETENTION_DAYS', 30, 1, 3_650),
    auditRetentionDays: int('AUDIT_RETENTION_DAYS', 90, 1, 36_500),
    analyticsMaxResultRows: int('ANALYTICS_MAX_RESULT_ROWS', 10_000, 1, 1_000_000),
    analyticsMaxRowsRead: int('ANALYTICS_MAX_ROWS_READ', 10_000_000, 1_000, 1_000_000_000),
    analyticsQueryTimeoutMs: int('ANALYTICS_QUERY_TIMEOUT_MS', 10_000, 100, 600_000),
    redis,
    ratelimitFailMode: failMode,
    redisWaitReplicas: waitReplicas,
    redisWaitTimeoutMs: int('REDIS_WAIT_TIMEOUT_MS', 500, 1, 60_000),
    redisRequireAof: requireAof === 'true',
    cacheMaxEntries: int('CACHE_MAX_ENTRIES', 100_000, 100, 10_000_000),
    sessionCookieSecure: cookieSecure === 'always' ? 'always' : 'auto',
    authFailuresPerMinute: int('AUTH_FAILURES_PER_MINUTE', 100, 1, 1_000_000),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    cacheTtlMs: int('CACHE_TTL_MS', 60_000, 100, 600_000),
    hashWorkers: int('HASH_WORKERS', 1, 1, 64),
    analyticsWriter: analyticsWriter === 'event-loop' ? 'event-loop' : 'thread',
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}
