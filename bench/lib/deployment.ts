/**
 * Calls to an operator's keygate deployment (the bench's operator mode). Nothing a call reports
 * carries a secret: error details are truncated and the root key and every bench key are redacted,
 * since keygate's or a proxy's error bodies may echo what was sent.
 */

/** Every key the operator mode creates starts with `kgb_`: recognisable, and redacted from output. */
export const KEY_PREFIX = 'kgb';
const CALL_TIMEOUT_MS = 30_000;
const DETAIL_CHARS = 300;

export interface Deployment {
  /** Base URL, no trailing slash, as given (may hold credentials: show displayUrl instead). */
  readonly url: string;
  readonly rootKey: string;
}

export interface Answer<T> {
  readonly status: number;
  readonly data: T | undefined;
  readonly pagination: { cursor?: string; hasMore: boolean } | undefined;
  /** Error detail (redacted, truncated); empty on a 200. */
  readonly detail: string;
}

/** The URL without user or password, for output. */
export function displayUrl(url: string): string {
  const u = new URL(url);
  u.username = '';
  u.password = '';
  return u.toString().replace(/\/$/, '');
}

export function redact(text: string, rootKey: string): string {
  const withoutRoot = rootKey.length > 0 ? text.split(rootKey).join('<root key>') : text;
  return withoutRoot
    .replace(new RegExp(`\\b${KEY_PREFIX}_[A-Za-z0-9_-]+`, 'g'), `${KEY_PREFIX}_<redacted>`)
    .replace(/Bearer\s+\S+/gi, 'Bearer <redacted>');
}

/** One RPC call; only an unreachable deployment throws. */
export async function request<T>(d: Deployment, procedure: string, body: unknown): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(`${d.url}/v2/${procedure}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${d.rootKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
    throw new Error(`${procedure}: cannot reach ${displayUrl(d.url)} (${redact(why, d.rootKey)})`);
  }
  const text = await res.text();
  let parsed: { data?: T; pagination?: Answer<T>['pagination']; error?: { detail?: string; title?: string } } | undefined;
  try { parsed = JSON.parse(text) as typeof parsed; } catch { /* not keygate's JSON: the detail says so */ }
  const detail = res.status === 200 && parsed ? '' : redact((parsed?.error?.detail ?? parsed?.error?.title ?? `not a keygate answer: ${text}`).slice(0, DETAIL_CHARS), d.rootKey);
  return { status: res.status, data: parsed?.data, pagination: parsed?.pagination, detail };
}

/** One call that must answer 200 with JSON. */
export async function ok<T>(d: Deployment, procedure: string, body: unknown): Promise<T> {
  const a = await request<T>(d, procedure, body);
  if (a.status !== 200 || a.detail !== '') throw new Error(`${procedure} answered ${a.status}: ${a.detail}`);
  return a.data as T;
}

/**
 * Runs `count` tasks, at most `concurrency` at once, and returns only when none is in flight: on a
 * failure or an abort no new task starts, and the caller learns of it after the others settled,
 * so a cleanup that follows sees everything they created.
 */
export async function settledParallel(count: number, concurrency: number, signal: AbortSignal | undefined,
  task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: unknown;
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count && failure === undefined && signal?.aborted !== true) {
      try { await task(next++); } catch (err) { failure ??= err; }
    }
  }));
  if (failure !== undefined) throw failure;
  signal?.throwIfAborted();
}
