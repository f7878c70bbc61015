/**
 * Dashboard sessions as the storage keeps them: session → (root key hash, CSRF token, times).
 * Neither the session id nor the root key is kept in plaintext: a session is found by the SHA-256
 * of its id, and it names its root key by the hash keygate stores anyway. Kept in the storage of
 * the mode (LMDB, Redis), so a restart keeps them and every replica sees the same ones.
 *
 * A session grants nothing by itself: every use re-reads its root key (src/auth/session.ts), so a
 * revoked or removed root key ends its sessions at once, whoever revoked it and on every replica.
 */
import { createHash, randomBytes } from 'node:crypto';

/** How long a sign-in lasts (absolute, not sliding): the cookie's Max-Age. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/**
 * Sessions of one root key at most: its own oldest goes first, so no key can end another's, and
 * all sessions together stay within this many per root key.
 */
export const MAX_SESSIONS_PER_ROOT_KEY = 50;

export interface Session {
  readonly rootKeyHash: string;
  /** Sent back by the dashboard in `x-keygate-csrf` with every call the cookie authenticates. */
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface SessionStore {
  /** A new session for the root key with this hash; the id goes into the cookie, nowhere else. */
  create(rootKeyHash: string, nowMs: number): Promise<{ id: string; session: Session }>;
  /** The live session with this id, or null (unknown, ended or expired). */
  get(id: string, nowMs: number): Promise<Session | null>;
  /** Sign-out. Ending an unknown session is harmless. */
  end(id: string): Promise<void>;
  /** Ends every session of one root key (it was revoked). */
  endForRootKey(rootKeyHash: string): Promise<void>;
}

/** What a session is stored under: the SHA-256 of its id (base64url). */
export const sessionDigest = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

/** A fresh session: its id (for the cookie), its digest (for the store) and the record. */
export function newSession(rootKeyHash: string, nowMs: number): { id: string; digest: string; session: Session } {
  const id = randomBytes(32).toString('base64url');
  const session: Session = { rootKeyHash, csrfToken: randomBytes(24).toString('base64url'), createdAt: nowMs, expiresAt: nowMs + SESSION_TTL_MS };
  return { id, digest: sessionDigest(id), session };
}

/** A stored session as `get` answers it: null when absent; an expired one is ended, then null. */
export async function unlessExpired(session: Session | null, nowMs: number, end: () => Promise<void>): Promise<Session | null> {
  if (session === null) return null;
  if (session.expiresAt > nowMs) return session;
  await end();
  return null;
}
