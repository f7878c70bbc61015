/**
 * Dashboard sessions in Redis (storage/sessions.ts), shared by every replica: a hash per session
 * that expires with it, and per root key a sorted set of its sessions' digests by creation time,
 * which keeps each root key within MAX_SESSIONS_PER_ROOT_KEY. The two live in different slots, so
 * these are separate commands: two sign-ins of one key at the same moment may leave it one session
 * over the cap until its next sign-in.
 */
import type { RedisClient } from '../../redis/client.js';
import { MAX_SESSIONS_PER_ROOT_KEY, newSession, sessionDigest, SESSION_TTL_MS, unlessExpired, type Session, type SessionStore } from '../sessions.js';
import type { StorageKeys } from './keys.js';

export class RedisSessionStore implements SessionStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys) {}

  async create(rootKeyHash: string, nowMs: number): Promise<{ id: string; session: Session }> {
    const { id, digest, session } = newSession(rootKeyHash, nowMs);
    const own = this.k.sessionsOf(rootKeyHash);
    await this.client.zremrangebyscore(own, '-inf', nowMs - SESSION_TTL_MS);
    const over = await this.client.zcard(own) - MAX_SESSIONS_PER_ROOT_KEY + 1;
    if (over > 0) {
      const oldest = await this.client.zpopmin(own, over);
      for (let i = 0; i < oldest.length; i += 2) await this.client.del(this.k.session(oldest[i]!));
    }
    const key = this.k.session(digest);
    await this.client.multi()
      .hset(key, 'rootKeyHash', rootKeyHash, 'csrfToken', session.csrfToken, 'createdAt', session.createdAt, 'expiresAt', session.expiresAt)
      .pexpire(key, SESSION_TTL_MS)
      .exec();
    await this.client.multi().zadd(own, nowMs, digest).pexpire(own, SESSION_TTL_MS).exec();
    return { id, session };
  }

  async get(id: string, nowMs: number): Promise<Session | null> {
    const fields = await this.client.hgetall(this.k.session(sessionDigest(id)));
    if (fields.rootKeyHash === undefined || fields.csrfToken === undefined) return null;
    const session: Session = { rootKeyHash: fields.rootKeyHash, csrfToken: fields.csrfToken, createdAt: Number(fields.createdAt), expiresAt: Number(fields.expiresAt) };
    return unlessExpired(session, nowMs, () => this.end(id));
  }

  async end(id: string): Promise<void> {
    const digest = sessionDigest(id);
    const key = this.k.session(digest);
    const rootKeyHash = await this.client.hget(key, 'rootKeyHash');
    await this.client.del(key);
    if (rootKeyHash !== null) await this.client.zrem(this.k.sessionsOf(rootKeyHash), digest);
  }

  async endForRootKey(rootKeyHash: string): Promise<void> {
    const own = this.k.sessionsOf(rootKeyHash);
    for (const digest of await this.client.zrange(own, 0, -1)) await this.client.del(this.k.session(digest));
    await this.client.del(own);
  }
}
