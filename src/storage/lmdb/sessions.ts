/**
 * Dashboard sessions in LMDB (storage/sessions.ts): `sessions` maps a session's digest to its
 * record, `sessions_by_root_key` a root key hash to its sessions' digests, oldest first (at most
 * MAX_SESSIONS_PER_ROOT_KEY, so the list is read and written whole).
 */
import { MAX_SESSIONS_PER_ROOT_KEY, newSession, sessionDigest, unlessExpired, type Session, type SessionStore } from '../sessions.js';
import type { LmdbTables } from './open.js';

export class LmdbSessionStore implements SessionStore {
  constructor(private readonly t: LmdbTables) {}

  async create(rootKeyHash: string, nowMs: number): Promise<{ id: string; session: Session }> {
    const { id, digest, session } = newSession(rootKeyHash, nowMs);
    await this.t.root.transaction(() => {
      // This root key's sessions that are still live, minus its oldest beyond the cap.
      const own = (this.t.sessionsByRootKey.get(rootKeyHash) as string[] | undefined ?? []).filter((d) => {
        const s = this.t.sessions.get(d) as Session | undefined;
        if (s !== undefined && s.expiresAt > nowMs) return true;
        this.t.sessions.remove(d);
        return false;
      });
      while (own.length >= MAX_SESSIONS_PER_ROOT_KEY) this.t.sessions.remove(own.shift()!);
      own.push(digest);
      this.t.sessions.put(digest, session);
      this.t.sessionsByRootKey.put(rootKeyHash, own);
    });
    return { id, session };
  }

  async get(id: string, nowMs: number): Promise<Session | null> {
    const session = this.t.sessions.get(sessionDigest(id)) as Session | undefined;
    return unlessExpired(session ?? null, nowMs, () => this.end(id));
  }

  async end(id: string): Promise<void> {
    const digest = sessionDigest(id);
    await this.t.root.transaction(() => {
      const session = this.t.sessions.get(digest) as Session | undefined;
      if (session === undefined) return;
      this.t.sessions.remove(digest);
      const own = (this.t.sessionsByRootKey.get(session.rootKeyHash) as string[] | undefined ?? []).filter((d) => d !== digest);
      if (own.length === 0) this.t.sessionsByRootKey.remove(session.rootKeyHash);
      else this.t.sessionsByRootKey.put(session.rootKeyHash, own);
    });
  }

  async endForRootKey(rootKeyHash: string): Promise<void> {
    await this.t.root.transaction(() => {
      for (const d of this.t.sessionsByRootKey.get(rootKeyHash) as string[] | undefined ?? []) this.t.sessions.remove(d);
      this.t.sessionsByRootKey.remove(rootKeyHash);
    });
  }
}
