/**
 * Dashboard sessions, kept in this process's memory: session → (root key hash, CSRF token,
 * expiry). Neither the session id nor the root key is kept in plaintext: sessions are found by the
 * SHA-256 of their id, and a session names its root key by the hash keygate stores anyway.
 *
 * A session grants nothing by itself: every use re-reads its root key (src/auth/session.ts), so a
 * revoked or removed root key ends its sessions at once, whoever revoked it (CLI, API, another
 * replica). Sessions do not survive a restart and are not shared between replicas.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a sign-in lasts (absolute, not sliding): the cookie's Max-Age. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000;
/** Sessions kept at most; the oldest are dropped beyond this (expired ones first). */
const MAX_SESSIONS = 10_000;

export interface Session {
  readonly rootKeyHash: string;
  /** Sent back by the dashboard in `x-keygate-csrf` with every call the cookie authenticates. */
  readonly csrfToken: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

const digest = (sessionId: string): string => createHash('sha256').update(sessionId).digest('base64url');

/** Constant-time comparison of two tokens (their lengths are not secret). */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly ttlMs = SESSION_TTL_MS, private readonly max = MAX_SESSIONS) {}

  /** A new session for the root key with this hash; the id goes into the cookie, nowhere else. */
  create(rootKeyHash: string, nowMs: number): { id: string; session: Session } {
    if (this.sessions.size >= this.max) this.makeRoom(nowMs);
    const id = randomBytes(32).toString('base64url');
    const session: Session = { rootKeyHash, csrfToken: randomBytes(24).toString('base64url'), createdAt: nowMs, expiresAt: nowMs + this.ttlMs };
    this.sessions.set(digest(id), session);
    return { id, session };
  }

  /** The live session with this id, or null (unknown, ended or expired). */
  get(id: string, nowMs: number): Session | null {
    const key = digest(id);
    const session = this.sessions.get(key);
    if (!session) return null;
    if (session.expiresAt <= nowMs) {
      this.sessions.delete(key);
      return null;
    }
    return session;
  }

  /** Sign-out. Ending an unknown session is harmless. */
  end(id: string): void {
    this.sessions.delete(digest(id));
  }

  /** Ends every session of one root key (it was revoked). */
  endForRootKey(rootKeyHash: string): void {
    for (const [key, session] of this.sessions) if (session.rootKeyHash === rootKeyHash) this.sessions.delete(key);
  }

  get size(): number {
    return this.sessions.size;
  }

  private makeRoom(nowMs: number): void {
    for (const [key, session] of this.sessions) if (session.expiresAt <= nowMs) this.sessions.delete(key);
    // Still full: the oldest go (a Map iterates in insertion order).
    for (const key of this.sessions.keys()) {
      if (this.sessions.size < this.max) break;
      this.sessions.delete(key);
    }
  }
}
