/**
 * A real keygate per test file: started in-process on a free loopback port with its own LMDB
 * folder, its log lines captured for inspection (and written to the run's log folder, which is
 * searched for every issued key at the end of the run: run-logs.ts), stopped after the file.
 * `call` speaks plain HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, inject } from 'vitest';
import { randomBytes } from 'node:crypto';
import { newRootKey } from '../../src/auth/bootstrap.js';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.js';
import { loadConfig, type Config } from '../../src/config.js';
import { startKeygate, type Keygate } from '../../src/keygate.js';
import { createLogger } from '../../src/obs/log.js';
import { newId } from '../../src/util/ids.js';
import { openRunLog, recordIssuedKey, recordSecret } from './run-logs.js';

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  /** Bearer token; `null` sends no Authorization header. Defaults to the harness's admin key. */
  rootKey?: string | null;
  headers?: Record<string, string>;
  method?: string;
  /** Raw body text instead of JSON.stringify(body). */
  raw?: string;
}

export interface Harness {
  readonly url: string;
  readonly dataDir: string;
  readonly keygate: Keygate;
  /** A root key with every permission. */
  readonly adminKey: string;
  /** Every log line written so far. */
  logs(): string;
  call<T = any>(procedure: string, body?: unknown, options?: CallOptions): Promise<CallResult<T>>;
  /** A new root key with exactly these permissions. */
  rootKey(permissions: readonly string[]): Promise<string>;
  createApi(name?: string): Promise<string>;
  createKey(body: Record<string, unknown>): Promise<{ keyId: string; key: string }>;
  createIdentity(body: Record<string, unknown>): Promise<string>;
  verify(key: string, extra?: Record<string, unknown>): Promise<CallResult>;
}

export async function callKeygate<T = any>(url: string, path: string, body: unknown, options: CallOptions & { defaultKey?: string } = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...options.headers };
  const token = options.rootKey === undefined ? options.defaultKey : options.rootKey;
  if (token !== null && token !== undefined) headers.authorization = `Bearer ${token}`;
  const method = options.method ?? 'POST';
  const res = await fetch(`${url}${path}`, {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' ? undefined : options.raw ?? JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = JSON.parse(text); } catch { /* left as text for the test to inspect */ }
  recordIssuedKey(path, parsed);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

/**
 * LMDB by default; the distributed mode on the run's Redis Cluster when the test project says so
 * (KEYGATE_HARNESS_STORE=redis-cluster), with a key prefix of this harness's own.
 */
function storeSettings(): Record<string, string> {
  if (process.env.KEYGATE_HARNESS_STORE !== 'redis-cluster') return {};
  return { REDIS_CLUSTER_NODES: inject('redisClusterNodes'), REDIS_KEY_PREFIX: `kg-test-${randomBytes(4).toString('hex')}:` };
}

export async function startHarness(overrides: Partial<Config> = {}): Promise<Harness & { stop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'keygate-test-'));
  const config = { ...loadConfig({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'debug', ...storeSettings() }), ...overrides };
  if (config.rootKey !== undefined) recordSecret(config.rootKey);
  let captured = '';
  const runLog = openRunLog('harness');
  const sink = new Writable({ write(chunk, _enc, done) { captured += String(chunk); runLog?.write(chunk); done(); } });
  let keygate: Keygate;
  try {
    keygate = await startKeygate(config, createLogger(config.logLevel, sink));
  } catch (err) {
    runLog?.close();
    throw err;
  }
  const rootKey = async (permissions: readonly string[]): Promise<string> => {
    const { record, plaintext } = newRootKey(newId('rk'), 'test', permissions);
    recordSecret(plaintext);
    await keygate.services.storage.rootKeys.put(record);
    return plaintext;
  };
  const adminKey = await rootKey(ALL_PERMISSIONS);
  const call = <T>(procedure: string, body?: unknown, options: CallOptions = {}) =>
    callKeygate<T>(keygate.url, `/v2/${procedure}`, body, { ...options, defaultKey: adminKey });
  const ok = async (procedure: string, body: unknown): Promise<any> => {
    const res = await call<any>(procedure, body);
    if (res.status !== 200) throw new Error(`${procedure} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };
  return {
    url: keygate.url,
    dataDir,
    keygate,
    adminKey,
    logs: () => captured,
    call,
    rootKey,
    createApi: async (name = 'test-api') => (await ok('apis.createApi', { name })).apiId,
    createKey: async (body) => ok('keys.createKey', body),
    createIdentity: async (body) => (await ok('identities.createIdentity', body)).identityId,
    verify: (key, extra = {}) => call('keys.verifyKey', { key, ...extra }),
    async stop() {
      await keygate.close();
      runLog?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One harness for the whole test file. */
export function useHarness(overrides: Partial<Config> = {}): Harness {
  let h: (Harness & { stop(): Promise<void> }) | undefined;
  beforeAll(async () => { h = await startHarness(overrides); });
  afterAll(async () => { await h?.stop(); });
  return new Proxy({} as Harness, {
    get(_target, prop) {
      if (!h) throw new Error('harness used outside a test');
      return (h as any)[prop];
    },
  });
}
