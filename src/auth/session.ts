/**
 * The dashboard's way in: a session cookie instead of `Authorization: Bearer`. It yields the same
 * Principal as the root key it was signed in with (root-key.ts), so every procedure checks the
 * same permissions whichever way the caller came.
 *
 * CSRF: the cookie is HttpOnly and SameSite=Strict, and it counts only together with the session's
 * own token in the `x-keygate-csrf` header. A cross-site page can neither read that token nor
 * send a custom header without a CORS preflight, which keygate never grants. Without the header
 * the cookie is ignored (the request is then one without credentials: 401).
 */
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import type { RootKeyStore } from '../storage/types.js';
import type { RootKeyRecord } from '../storage/records.js';
import type { Session, SessionStore } from '../storage/sessions.js';
import type { Principal } from './permissions.js';
import { principalFor } from './root-key.js';

export const SESSION_COOKIE = 'keygate_session';
/** The name of a Secure session cookie: browsers keep a `__Host-` cookie only from HTTPS, for this host. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const CSRF_HEADER = 'x-keygate-csrf';

/** What the transport copies out of a request sent without Authorization but with the CSRF header. */
export interface SessionCredentials {
  readonly cookie: string;
  readonly csrf: string;
}

/** Constant-time comparison of two tokens (their lengths are not secret). */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const ENDED = 'The dashboard session has expired or was ended. Sign in again.';

/** The session id in a Cookie header (either cookie name), or '' when there is none. */
export function sessionIdFrom(cookieHeader: string): string {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name === SESSION_COOKIE || name === SECURE_SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return '';
}

/** The session and its live root key, or null: unknown/expired session, revoked or removed key. */
export async function liveSession(rootKeys: RootKeyStore, sessions: SessionStore, sessionId: string, nowMs: number): Promise<{ session: Session; record: RootKeyRecord } | null> {
  if (sessionId === '') return null;
  const session = await sessions.get(sessionId, nowMs);
  if (!session) return null;
  const record = await rootKeys.findByHash(session.rootKeyHash);
  if (!record || record.revokedAt !== undefined) {
    await sessions.end(sessionId);
    return null;
  }
  return { session, record };
}

/** Authenticates a procedure call made with the session cookie; throws the usual 401 otherwise. */
export async function authenticateSession(rootKeys: RootKeyStore, sessions: SessionStore, credentials: SessionCredentials, nowMs: number): Promise<Principal> {
  const live = await liveSession(rootKeys, sessions, sessionIdFrom(credentials.cookie), nowMs);
  if (!live) throw new ApiError('err:keygate:authentication:unauthorized', ENDED);
  if (!sameToken(credentials.csrf, live.session.csrfToken)) {
    throw new ApiError('err:keygate:authentication:unauthorized', `The ${CSRF_HEADER} header does not match this session.`);
  }
  return principalFor(live.record);
}
