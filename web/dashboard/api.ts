/**
 * The dashboard's only way to keygate: the session endpoints, and the ordinary procedures at
 * POST /v2/<procedure>, authenticated by the HttpOnly session cookie plus the session's CSRF token
 * in `x-keygate-csrf`. No private endpoint: what the dashboard may do is what its root key may do.
 */

export interface SessionInfo {
  readonly rootKeyId: string;
  readonly name?: string;
  readonly permissions: readonly string[];
  readonly csrfToken: string;
  readonly expiresAt: number;
}

export interface Pagination {
  readonly cursor?: string;
  readonly hasMore: boolean;
}

/** A failed call, with keygate's error envelope when there was one. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly title: string, readonly detail: string, readonly type = '') {
    super(`${status} ${title}: ${detail}`);
    this.name = 'ApiFailure';
  }
}

let csrfToken = '';
const signedOutListeners = new Set<(reason: string) => void>();

/** Called when keygate answers 401 to a call: the session expired, ended, or its key was revoked. */
export function onSignedOut(listener: (reason: string) => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

async function request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ data: T; pagination?: Pagination }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiFailure(0, 'Network error', 'keygate could not be reached. Check that it is running, then retry.');
  }
  let parsed: { data?: T; pagination?: Pagination; error?: { title?: string; detail?: string; type?: string } } = {};
  try {
    parsed = await res.json();
  } catch {
    // Not JSON (a proxy's error page): described by the status alone.
  }
  if (!res.ok) {
    const error = parsed.error ?? {};
    throw new ApiFailure(res.status, error.title ?? res.statusText, error.detail ?? 'The request failed.', error.type ?? '');
  }
  return { data: parsed.data as T, ...(parsed.pagination ? { pagination: parsed.pagination } : {}) };
}

export async function signIn(rootKey: string): Promise<SessionInfo> {
  const { data } = await request<SessionInfo>('POST', '/dashboard/api/session', { rootKey });
  csrfToken = data.csrfToken;
  return data;
}

/** The session of this browser, or null when not signed in. */
export async function currentSession(): Promise<SessionInfo | null> {
  try {
    const { data } = await request<SessionInfo>('GET', '/dashboard/api/session');
    csrfToken = data.csrfToken;
    return data;
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 401) return null;
    throw err;
  }
}

export async function signOut(): Promise<void> {
  await request('DELETE', '/dashboard/api/session', undefined, { 'x-keygate-csrf': csrfToken });
  csrfToken = '';
}

/** Calls a procedure; on 401 every listener hears that the session is gone. */
export async function call<T>(procedure: string, body: unknown = {}): Promise<{ data: T; pagination?: Pagination }> {
  try {
    return await request<T>('POST', `/v2/${procedure}`, body, { 'x-keygate-csrf': csrfToken });
  } catch (err) {
    if (err instanceof ApiFailure && err.status === 401) for (const listener of signedOutListeners) listener(err.detail);
    throw err;
  }
}

/** `data` of a procedure call. */
export async function data<T>(procedure: string, body: unknown = {}): Promise<T> {
  return (await call<T>(procedure, body)).data;
}
