import { describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { sessionIdFrom } from '../../src/auth/session.js';
import { SessionStore } from '../../src/dashboard/sessions.js';

describe('SessionStore', () => {
  test('a session lives until its expiry, then reads as absent', () => {
    const store = new SessionStore(1_000);
    const { id, session } = store.create('hash-a', 10_000);
    expect(session.expiresAt).toBe(11_000);
    expect(store.get(id, 10_999)).toEqual(session);
    expect(store.get(id, 11_000)).toBeNull();
    expect(store.size).toBe(0);
  });

  test('ids and CSRF tokens are random and distinct; the id itself is not what the store keeps', () => {
    const store = new SessionStore();
    const a = store.create('h', 0);
    const b = store.create('h', 0);
    expect(a.id).not.toBe(b.id);
    expect(a.session.csrfToken).not.toBe(b.session.csrfToken);
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const kept = JSON.stringify([...(store as unknown as { sessions: Map<string, unknown> }).sessions.keys()]);
    expect(kept).not.toContain(a.id);
    expect(kept).toContain(createHash('sha256').update(a.id).digest('base64url'));
  });

  test('end and endForRootKey', () => {
    const store = new SessionStore();
    const a = store.create('key-1', 0);
    const b = store.create('key-1', 0);
    const c = store.create('key-2', 0);
    store.end(a.id);
    expect(store.get(a.id, 1)).toBeNull();
    store.endForRootKey('key-1');
    expect(store.get(b.id, 1)).toBeNull();
    expect(store.get(c.id, 1)).not.toBeNull();
  });

  test('bounded: expired sessions go first, then the oldest', () => {
    const store = new SessionStore(100, 3);
    const old = store.create('h', 0);
    const x = store.create('h', 50);
    const y = store.create('h', 60);
    const z = store.create('h', 120); // `old` has expired: it makes room
    expect(store.size).toBe(3);
    expect(store.get(old.id, 120)).toBeNull();
    const w = store.create('h', 130); // none expired: the oldest (x) goes
    expect(store.get(x.id, 130)).toBeNull();
    for (const s of [y, z, w]) expect(store.get(s.id, 130)).not.toBeNull();
  });

  test('sessionIdFrom finds the cookie among others', () => {
    expect(sessionIdFrom('a=1; keygate_session=abc-_1; b=2')).toBe('abc-_1');
    expect(sessionIdFrom('keygate_session=x')).toBe('x');
    expect(sessionIdFrom('other_keygate_session=x')).toBe('');
    expect(sessionIdFrom('')).toBe('');
  });

  test('one root key keeps at most its cap: its own oldest goes, never another key\'s session', () => {
    const store = new SessionStore(1_000_000, 1_000, 3);
    const other = store.create('B', 0);
    const a = Array.from({ length: 10 }, (_, i) => store.create('A', i + 1));
    expect(store.size).toBe(4);
    expect(store.get(other.id, 20)).not.toBeNull();
    for (const s of a.slice(0, 7)) expect(store.get(s.id, 20)).toBeNull();
    for (const s of a.slice(7)) expect(store.get(s.id, 20)).not.toBeNull();
  });

  test('full overall: the root key holding the most sessions gives up its oldest', () => {
    const store = new SessionStore(1_000_000, 4, 10);
    const b = store.create('B', 0);
    const a1 = store.create('A', 1);
    store.create('A', 2);
    store.create('A', 3);
    store.create('C', 4); // full: A holds most, its oldest goes
    expect(store.get(a1.id, 5)).toBeNull();
    expect(store.get(b.id, 5)).not.toBeNull();
    expect(store.size).toBe(4);
  });

  test('ending sessions keeps the per-key count right (sign-out, expiry, revocation)', () => {
    const store = new SessionStore(100, 1_000, 2);
    const x = store.create('A', 0);
    store.end(x.id);
    const y = store.create('A', 10);
    const z = store.create('A', 20);
    // x was ended, so y and z fit without dropping each other.
    expect(store.get(y.id, 30)).not.toBeNull();
    expect(store.get(z.id, 30)).not.toBeNull();
    store.endForRootKey('A');
    expect(store.size).toBe(0);
    const w = store.create('A', 40);
    expect(store.get(w.id, 41)).not.toBeNull();
  });
});
