/**
 * Behavioural contract of SessionStore (src/storage/sessions.ts): dashboard sessions as every
 * backend keeps them. `open` gives a fresh storage; `reopen` opens the data of the storage last
 * opened, after it was closed (a restart, or another replica).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SESSIONS_PER_ROOT_KEY, SESSION_TTL_MS, sessionDigest } from '../../src/storage/sessions.js';
import type { Storage } from '../../src/storage/types.js';

export function describeSessionStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void,
  reopen: () => Promise<Storage> | Storage,
): void {
  describe(`SessionStore contract: ${impl}`, () => {
    const opened: Storage[] = [];
    const track = async (s: Promise<Storage> | Storage): Promise<Storage> => {
      const storage = await s;
      opened.push(storage);
      return storage;
    };
    afterEach(async () => {
      for (const storage of opened.splice(0).reverse()) await close(storage);
    });

    it('a session lives until its expiry, then reads as absent', async () => {
      const { sessions } = await track(open());
      const { id, session } = await sessions.create('hash-a', 10_000);
      expect(session).toMatchObject({ rootKeyHash: 'hash-a', createdAt: 10_000, expiresAt: 10_000 + SESSION_TTL_MS });
      expect(await sessions.get(id, 10_000 + SESSION_TTL_MS - 1)).toEqual(session);
      expect(await sessions.get(id, 10_000 + SESSION_TTL_MS)).toBeNull();
      expect(await sessions.get(id, 10_000)).toBeNull(); // an expired session read once is gone
    });

    it('ids and CSRF tokens are random and distinct, and an id is found by itself only, not by its digest', async () => {
      const { sessions } = await track(open());
      const a = await sessions.create('h', 0);
      const b = await sessions.create('h', 0);
      expect(a.id).not.toBe(b.id);
      expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
      expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await sessions.get(sessionDigest(a.id), 1)).toBeNull();
      expect(await sessions.get('', 1)).toBeNull();
    });

    it('end and endForRootKey end exactly the sessions they name; ending an unknown one is harmless', async () => {
      const { sessions } = await track(open());
      const a = await sessions.create('key-1', 0);
      const b = await sessions.create('key-1', 0);
      const c = await sessions.create('key-2', 0);
      await sessions.end(a.id);
      await sessions.end('no-such-session');
      expect(await sessions.get(a.id, 1)).toBeNull();
      expect(await sessions.get(b.id, 1)).not.toBeNull();
      await sessions.endForRootKey('key-1');
      expect(await sessions.get(b.id, 1)).toBeNull();
      expect(await sessions.get(c.id, 1)).toEqual(c.session);
    });

    it(`one root key keeps at most ${MAX_SESSIONS_PER_ROOT_KEY} sessions: its own oldest goes, never another key's`, async () => {
      const { sessions } = await track(open());
      const other = await sessions.create('B', 0);
      const own = [];
      for (let i = 0; i < MAX_SESSIONS_PER_ROOT_KEY + 2; i++) own.push(await sessions.create('A', i + 1));
      expect(await sessions.get(other.id, 100)).not.toBeNull();
      for (const s of own.slice(0, 2)) expect(await sessions.get(s.id, 100)).toBeNull();
      for (const s of own.slice(2)) expect(await sessions.get(s.id, 100)).not.toBeNull();
      // Sign-outs free their places: after ending one, a new session pushes out no other.
      await sessions.end(own[2]!.id);
      const next = await sessions.create('A', 200);
      for (const s of [...own.slice(3), next]) expect(await sessions.get(s.id, 201)).not.toBeNull();
    });

    it('sessions of one root key that expired make room before any live one goes', async () => {
      const { sessions } = await track(open());
      const expired = await sessions.create('A', 0);
      const live = [];
      for (let i = 1; i < MAX_SESSIONS_PER_ROOT_KEY; i++) live.push(await sessions.create('A', SESSION_TTL_MS / 2 + i));
      const later = SESSION_TTL_MS + 10;
      const next = await sessions.create('A', later);
      for (const s of [...live, next]) expect(await sessions.get(s.id, later)).not.toBeNull();
      expect(await sessions.get(expired.id, later)).toBeNull();
    });

    it('sessions are kept: the same data opened again (a restart, another replica) finds and ends them', async () => {
      const first = await open();
      const { id, session } = await first.sessions.create('key-r', 0);
      await first.sessions.create('key-r', 1);
      await first.close();
      const second = await track(reopen());
      expect(await second.sessions.get(id, 2)).toEqual(session);
      await second.sessions.end(id);
      expect(await second.sessions.get(id, 2)).toBeNull();
    });
  });
}
