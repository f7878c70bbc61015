/**
 * Calls keygate's RPC API (seeding, checks) with the root key, and the seeding itself: APIs,
 * identities with two auto-applied limits, keys (keys.createKey in parallel, or keys.migrateKeys in
 * large batches of hashes computed here, for the 1M-key memory run).
 */
import { hash, randomBytes } from 'node:crypto';
import { log } from './progress.js';

export async function call<T = Record<string, unknown>>(baseUrl: string, rootKey: string, procedure: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}/v2/${procedure}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${rootKey}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${procedure} answered ${res.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T }).data;
}

/** Runs `count` tasks with at most `concurrency` in flight. */
export async function parallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) await task(next++);
  }));
}

/** Identity limits that never deny during a run: the point is their cost, not their verdict. */
export const IDENTITY_LIMITS = [
  { name: 'requests', limit: 1_000_000_000_000, duration: 60_000, autoApply: true },
  { name: 'burst', limit: 1_000_000_000_000, duration: 1_000, autoApply: true },
];

export interface Seeded {
  readonly apiId: string;
  /** Keys without limits or identity. */
  readonly plainKeys: string[];
  /** Keys linked to identities that carry the two limits. */
  readonly limitedKeys: string[];
  readonly seconds: number;
}

/** `only`: just the plain or just the limited keys (the other list stays empty), for a tool that measures one scenario. */
export async function seedScenarioKeys(url: string, rootKey: string, keys: number, identities: number, onProgress: (done: number) => void,
  only?: 'plain' | 'limited'): Promise<Seeded> {
  const started = Date.now();
  const { apiId } = await call<{ apiId: string }>(url, rootKey, 'apis.createApi', { name: 'bench' });
  await parallel(identities, 32, async (i) => {
    await call(url, rootKey, 'identities.createIdentity', { externalId: `bench_ident_${i}`, ratelimits: IDENTITY_LIMITS });
  });
  const plainKeys: string[] = new Array(only === 'limited' ? 0 : keys);
  const limitedKeys: string[] = new Array(only === 'plain' ? 0 : keys);
  let done = 0;
  await parallel(only === undefined ? keys * 2 : keys, 64, async (i) => {
    const limited = only === 'limited' || (only === undefined && i >= keys);
    const j = only === undefined && limited ? i - keys : i;
    const body = limited ? { apiId, prefix: 'bl', externalId: `bench_ident_${j % identities}` } : { apiId, prefix: 'bp' };
    const { key } = await call<{ key: string }>(url, rootKey, 'keys.createKey', body);
    (limited ? limitedKeys : plainKeys)[j] = key;
    if (++done % 1000 === 0) onProgress(done);
  });
  return { apiId, plainKeys, limitedKeys, seconds: (Date.now() - started) / 1000 };
}

/** `n` distinct plaintexts of keygate's shape (never created, so never found). */
export function randomKeys(n: number, prefix: string): string[] {
  return Array.from({ length: n }, () => `${prefix}_${randomBytes(18).toString('base64url')}`);
}

/**
 * Imports `n` keys with keys.migrateKeys under a `sha256` migration, `batch` hashes per call
 * (base64 SHA-256 of the whole key, keygate's own storage hash, so they verify without
 * migrationId). Returns the plaintexts.
 */
export async function seedMigratedKeys(url: string, rootKey: string, apiId: string, migrationId: string, n: number, batch: number,
  onProgress: (done: number) => void): Promise<string[]> {
  const plaintexts = randomKeys(n, 'bm');
  let done = 0;
  await parallel(Math.ceil(n / batch), 2, async (b) => {
    const slice = plaintexts.slice(b * batch, (b + 1) * batch);
    const result = await call<{ failed?: unknown[] }>(url, rootKey, 'keys.migrateKeys', {
      migrationId, apiId, keys: slice.map((k) => ({ hash: hash('sha256', k, 'base64') })),
    });
    if (result.failed && result.failed.length > 0) throw new Error(`migrateKeys: ${result.failed.length} keys failed`);
    done += slice.length;
    onProgress(done);
  });
  return plaintexts;
}

/** keys.createKey in parallel, for comparison with migrateKeys. */
export async function seedCreatedKeys(url: string, rootKey: string, apiId: string, n: number, onProgress: (done: number) => void): Promise<string[]> {
  const keys: string[] = new Array(n);
  let done = 0;
  await parallel(n, 64, async (i) => {
    keys[i] = (await call<{ key: string }>(url, rootKey, 'keys.createKey', { apiId, prefix: 'bc' })).key;
    if (++done % 5000 === 0) onProgress(done);
  });
  return keys;
}

/**
 * Verifies every body once with `verifyOne`, 100 in flight. A failed answer (a 503 when Redis was
 * too slow for REDIS_COMMAND_TIMEOUT_MS) is counted, not fatal: such a pass only fills keygate's
 * caches. `signal`: once aborted, no further body is sent and the pass rejects.
 */
export async function verifyEach(list: readonly string[], verifyOne: (body: unknown) => Promise<unknown>, signal?: AbortSignal): Promise<{ failures: number; first: string }> {
  let failures = 0;
  let first = '';
  await parallel(list.length, 100, async (i) => {
    signal?.throwIfAborted();
    try {
      await verifyOne(JSON.parse(list[i]!));
    } catch (err) {
      if (failures++ === 0) first = err instanceof Error ? err.message : String(err);
    }
  });
  return { failures, first };
}

/**
 * The untimed pass before timed verifyKey runs: every body once, failures reported through
 * `shown` (which may redact), so a run does not measure loading its keys. An embedded keygate
 * needs it once (it remembers a key from its first verification on); the Redis modes before every
 * run (they rebuild what they remember of a key after CACHE_TTL_MS).
 */
export async function warmPass(label: string, list: readonly string[], verifyOne: (body: unknown) => Promise<unknown>,
  options: { signal?: AbortSignal; shown?: (text: string) => string } = {}): Promise<void> {
  const { failures, first } = await verifyEach(list, verifyOne, options.signal);
  const shown = options.shown ?? ((text: string): string => text);
  if (failures > 0) log(`  ! ${label}: ${failures} of ${list.length} verifications of the pass before the run failed; the first: ${shown(first)}`);
}
