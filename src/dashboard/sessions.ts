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
/** Sessions of one root key at most: its own oldest goes first, so no key can end another's. */
export const MAX_SESSIONS_PER_ROOT_KEY = 50;
/** Sessions kept at most (memory); beyond, expired ones go, then the oldest of the root key holding most. */
const MAX_SESSIONS = 100_000;

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
  /** Root key hash → its sessions' digests, oldest first. */
  private readonly byRootKey = new Map<string, string[]>();

  constructor(private readonly ttlMs = SESSION_TTL_MS, private readonly max = MAX_SESSIONS, private readonly maxPerRootKey = MAX_SESSIONS_PER_ROOT_KEY) {}

  /** A new session for the root key with this hash; the id goes into the cookie, nowhere else. */
  create(rootKeyHash: string, nowMs: number): { id: string; session: Session } {
    const own = this.byRootKey.get(rootKeyHash) ?? [];
    this.byRootKey.set(rootKeyHash, own);
    while (own.length >= this.maxPerRootKey) this.sessions.delete(own.shift() as string);
    if (this.sessions.size >= this.max) this.makeRoom(nowMs);
    const id = randomBytes(32).toString('base64url');
    const session: Session = { rootKeyHash, csrfToken: randomBytes(24).toString('base64url'), createdAt: nowMs, expiresAt: nowMs + this.ttlMs };
    const key = digest(id);
    this.sessions.set(key, session);
    own.push(key);
    return { id, session };
  }

  /** The live session with this id, or null (unknown, ended or expired). */
  get(id: string, nowMs: number): Session | null {
    const key = digest(id);
    const session = this.sessions.get(key);
    if (!session) return null;
    if (session.expiresAt <= nowMs) {
      this.remove(key, session);
      return null;
    }
    return session;
  }

  /** Sign-out. Ending an unknown session is harmless. */
  end(id: string): void {
    const key = digest(id);
    const session = this.sessions.get(key);
    if (session) this.remove(key, session);
  }

  /** Ends every session of one root key (it was revoked). */
  endForRootKey(rootKeyHash: string): void {
    for (const key of this.byRootKey.get(rootKeyHash) ?? []) this.sessions.delete(key);
    this.byRootKey.delete(rootKeyHash);
  }

  get size(): number {
    return this.sessions.size;
  }

  private remove(key: string, session: Session): void {
    this.sessions.delete(key);
    const own = this.byRootKey.get(session.rootKeyHash);
    if (!own) return;
    const at = own.indexOf(key);
    if (at >= 0) own.splice(at, 1);
    if (own.length === 0) this.byRootKey.delete(session.rootKeyHash);
  }

  private makeRoom(nowMs: number): void {
    for (const [key, session] of this.sessions) if (session.expiresAt <= nowMs) this.remove(key, session);
    // Still full (only with thousands of root keys signed in): the root key with the most
    // sessions gives up its oldest, so the many sessions of one key never push out another's.
    while (this.sessions.size >= this.max) {
      let largest: string[] = [];
      for (const own of this.byRootKey.values()) if (own.length > largest.length) largest = own;
      const key = largest[0] as string;
      this.remove(key, this.sessions.get(key) as Session);
    }
  }
}
