import { isAbsolute, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, MIN_ROOT_KEY_LENGTH } from '../../src/config.js';

function configError(env: Record<string, string | undefined>): ConfigError {
  let caught: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ConfigError);
  return caught as ConfigError;
}

describe('loadConfig', () => {
  it('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      docsUrl: 'https://unkey.com/docs',
      logLevel: 'info',
      bodyLimitBytes: 1_048_576,
      rootKey: undefined,
    });
    expect(isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(resolve('./data'));
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('empty values count as unset', () => {
    expect(loadConfig({ PORT: '', HOST: '', LOG_LEVEL: '', DOCS_URL: '', ROOT_KEY: '', BODY_LIMIT_BYTES: '', VERIFICATIONS_RETAINED: '' })).toMatchObject({
      port: 8080, host: '127.0.0.1', logLevel: 'info', docsUrl: 'https://unkey.com/docs', rootKey: undefined, bodyLimitBytes: 1_048_576, verificationsRetained: 1_000_000,
    });
  });

  it('reads valid values', () => {
    const config = loadConfig({
      PORT: '0', HOST: '0.0.0.0', DATA_DIR: '/var/lib/keygate', ROOT_KEY: 'a'.repeat(MIN_ROOT_KEY_LENGTH),
      DOCS_URL: 'http://docs.example.com/', LOG_LEVEL: 'debug', BODY_LIMIT_BYTES: '2048', VERIFICATIONS_RETAINED: '5000',
      LOG_FORMAT: 'pretty', METRICS: 'off', AUDIT_RETENTION_DAYS: '365',
    });
    expect(config).toEqual({
      port: 0, host: '0.0.0.0', dataDir: '/var/lib/keygate', rootKey: 'a'.repeat(MIN_ROOT_KEY_LENGTH),
      docsUrl: 'http://docs.example.com', logLevel: 'debug', bodyLimitBytes: 2048, verificationsRetained: 5000,
      redis: null, ratelimitFailMode: 'closed', cacheMaxEntries: 100_000, cacheTtlMs: 60_000, hashWorkers: 1, shutdownGraceMs: 10_000,
      analyticsRetentionDays: 30, analyticsMaxResultRows: 10_000, analyticsMaxRowsRead: 10_000_000, analyticsQueryTimeoutMs: 10_000,
      logFormat: 'pretty', metrics: false, redisWaitReplicas: 'auto', redisWaitTimeoutMs: 500, redisRequireAof: false,
      sessionCookieSecure: 'auto', authFailuresPerMinute: 100, auditRetentionDays: 365, analyticsWriter: 'thread',
    });
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
    expect(loadConfig({}).auditRetentionDays).toBe(90);
    expect(configError({ AUDIT_RETENTION_DAYS: '0' }).problems).toHaveLength(1);
    // Defaults: metrics on; JSON logs unless stdout is a terminal (auto).
    expect(loadConfig({ LOG_FORMAT: 'json' })).toMatchObject({ metrics: true, logFormat: 'json' });
  });

  it('reads the session cookie and failed-authentication settings, and refuses bad ones', () => {
    expect(loadConfig({ SESSION_COOKIE_SECURE: 'always', AUTH_FAILURES_PER_MINUTE: '30' })).toMatchObject({ sessionCookieSecure: 'always', authFailuresPerMinute: 30 });
    const err = configError({ SESSION_COOKIE_SECURE: 'yes', AUTH_FAILURES_PER_MINUTE: '0' });
    expect(err.problems).toHaveLength(2);
    for (const name of ['SESSION_COOKIE_SECURE', 'AUTH_FAILURES_PER_MINUTE']) expect(err.message).toContain(name);
  });

  it('refuses unknown log formats and metrics switches', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'xml', METRICS: 'yes' })).toThrow(/LOG_FORMAT must be auto, json or pretty[\s\S]*METRICS must be on or off/);
  });

  it('reads the analytics limits and refuses values out of range', () => {
    expect(loadConfig({ ANALYTICS_RETENTION_DAYS: '90', ANALYTICS_MAX_RESULT_ROWS: '500', ANALYTICS_MAX_ROWS_READ: '2000', ANALYTICS_QUERY_TIMEOUT_MS: '2500' })).toMatchObject({
      analyticsRetentionDays: 90, analyticsMaxResultRows: 500, analyticsMaxRowsRead: 2_000, analyticsQueryTimeoutMs: 2_500,
    });
    const err = configError({ ANALYTICS_RETENTION_DAYS: '0', ANALYTICS_MAX_RESULT_ROWS: 'many', ANALYTICS_MAX_ROWS_READ: '10', ANALYTICS_QUERY_TIMEOUT_MS: '-1' });
    expect(err.problems).toHaveLength(4);
    for (const name of ['ANALYTICS_RETENTION_DAYS', 'ANALYTICS_MAX_RESULT_ROWS', 'ANALYTICS_MAX_ROWS_READ', 'ANALYTICS_QUERY_TIMEOUT_MS']) expect(err.message).toContain(name);
  });

  it('reads where analytics records are written (the thread by default) and refuses anything else', () => {
    expect(loadConfig({}).analyticsWriter).toBe('thread');
    expect(loadConfig({ ANALYTICS_WRITER: 'event-loop' }).analyticsWriter).toBe('event-loop');
    expect(loadConfig({ ANALYTICS_WRITER: 'thread' }).analyticsWriter).toBe('thread');
    expect(() => loadConfig({ ANALYTICS_WRITER: 'auto' })).toThrow(/ANALYTICS_WRITER must be thread or event-loop \(got 'auto'\)/);
  });

  it('reports every invalid value at once in one ConfigError', () => {
    const err = configError({ PORT: 'abc', LOG_LEVEL: 'loud', DOCS_URL: 'ftp://x', ROOT_KEY: 'tooShort', BODY_LIMIT_BYTES: '12', VERIFICATIONS_RETAINED: '99' });
    expect(err.problems).toHaveLength(6);
    const text = err.problems.join('\n');
    for (const name of ['PORT', 'LOG_LEVEL', 'DOCS_URL', 'ROOT_KEY', 'BODY_LIMIT_BYTES', 'VERIFICATIONS_RETAINED']) expect(text).toContain(name);
    for (const problem of err.problems) expect(err.message).toContain(problem);
  });

  it.each([
    ['PORT=abc', { PORT: 'abc' }, 'PORT'],
    ['PORT=70000', { PORT: '70000' }, 'PORT'],
    ['PORT=-1', { PORT: '-1' }, 'PORT'],
    ['PORT=80.5', { PORT: '80.5' }, 'PORT'],
    ['PORT=1e3', { PORT: '1e3' }, 'PORT'],
    ['LOG_LEVEL=loud', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['DOCS_URL=ftp://x', { DOCS_URL: 'ftp://x' }, 'DOCS_URL'],
    ['DOCS_URL=not a url', { DOCS_URL: 'unkey.com/docs' }, 'DOCS_URL'],
    ['ROOT_KEY too short', { ROOT_KEY: 'a'.repeat(MIN_ROOT_KEY_LENGTH - 1) }, 'ROOT_KEY'],
    ['ROOT_KEY with a space', { ROOT_KEY: 'abcdefgh ijklmnopqrstuvwxyz' }, 'ROOT_KEY'],
    ['BODY_LIMIT_BYTES=abc', { BODY_LIMIT_BYTES: 'abc' }, 'BODY_LIMIT_BYTES'],
  ] as const)('rejects %s', (_label, env, name) => {
    const err = configError(env);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toContain(name);
    expect(err.message).toContain(name);
  });

  it('the value of an invalid ROOT_KEY never appears in the error', () => {
    for (const secret of ['s3cr3tV4lue', 'with space s3cr3t']) {
      const err = configError({ ROOT_KEY: secret, PORT: 'abc' });
      expect(err.message).not.toContain(secret);
      expect(err.problems.join('\n')).not.toContain(secret);
      expect(String(err)).not.toContain(secret);
      expect(JSON.stringify({ ...err, message: err.message })).not.toContain(secret);
    }
  });
});

describe('distributed-mode settings', () => {
  it('REDIS_URL or REDIS_CLUSTER_NODES switch to Redis; neither keeps the embedded mode', () => {
    expect(loadConfig({}).redis).toBeNull();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6390/2' }).redis).toEqual({ url: 'redis://127.0.0.1:6390/2', commandTimeoutMs: 250, keyPrefix: 'kg:' });
    expect(loadConfig({ REDIS_CLUSTER_NODES: '127.0.0.1:7001, 127.0.0.1:7002', REDIS_COMMAND_TIMEOUT_MS: '80', REDIS_KEY_PREFIX: 'prod:' }).redis).toEqual({
      clusterNodes: [{ host: '127.0.0.1', port: 7001 }, { host: '127.0.0.1', port: 7002 }], commandTimeoutMs: 80, keyPrefix: 'prod:',
    });
    expect(loadConfig({ RATELIMIT_FAIL_MODE: 'open' }).ratelimitFailMode).toBe('open');
  });

  it('replica waits and the AOF requirement: defaults, valid values, and what is refused', () => {
    expect(loadConfig({})).toMatchObject({ redisWaitReplicas: 'auto', redisWaitTimeoutMs: 500, redisRequireAof: false });
    expect(loadConfig({ REDIS_WAIT_REPLICAS: '0', REDIS_WAIT_TIMEOUT_MS: '50', REDIS_REQUIRE_AOF: 'true' })).toMatchObject({
      redisWaitReplicas: 0, redisWaitTimeoutMs: 50, redisRequireAof: true,
    });
    expect(loadConfig({ REDIS_WAIT_REPLICAS: '2' }).redisWaitReplicas).toBe(2);
    const err = configError({ REDIS_WAIT_REPLICAS: 'all', REDIS_WAIT_TIMEOUT_MS: '0', REDIS_REQUIRE_AOF: 'yes' });
    expect(err.problems).toHaveLength(3);
    for (const name of ['REDIS_WAIT_REPLICAS', 'REDIS_WAIT_TIMEOUT_MS', 'REDIS_REQUIRE_AOF']) expect(err.message).toContain(name);
    expect(configError({ REDIS_WAIT_REPLICAS: '17' }).problems).toHaveLength(1);
  });

  it('refuses both at once, malformed nodes, a bad URL and an unknown fail mode, naming each', () => {
    const err = configError({
      REDIS_URL: 'http://x', REDIS_CLUSTER_NODES: 'nohost,127.0.0.1:99999', RATELIMIT_FAIL_MODE: 'maybe', CACHE_TTL_MS: '5',
      REDIS_KEY_PREFIX: 'kg{1}:',
    });
    const text = err.problems.join('\n');
    for (const part of ['not both', 'REDIS_URL must be', "'nohost'", "'127.0.0.1:99999'", 'RATELIMIT_FAIL_MODE', 'CACHE_TTL_MS', 'REDIS_KEY_PREFIX']) expect(text).toContain(part);
  });
});
