/**
 * Behavioural contract of the OverrideStore (src/storage/types.ts). Every backend runs it:
 *
 *   describeOverrideStorage('lmdb', () => openLmdbStorage(dir), (s) => s.close())
 *
 * `open` gives a fresh, empty storage per test; `close` tears it down (default: `storage.close()`).
 * The pattern rules themselves (src/ratelimit/overrides.ts) run against the store in the last block.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findOverride } from '../../src/ratelimit/overrides.js';
import { WORKSPACE_ID } from '../../src/storage/records.js';
import type { OverrideValues, Storage } from '../../src/storage/types.js';

let counter = 0;
/** Ids that sort in creation order, like the backends' listing order must follow. */
const id = (prefix: string): string => `${prefix}_${(++counter).toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;

export function describeOverrideStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> = (s) => s.close(),
): void {
  describe(`${impl} override storage contract`, () => {
    let s: Storage;
    let ns: string;
    beforeEach(async () => { s = await open(); ns = id('rlns'); });
    afterEach(async () => { await close(s); });

    const values = (identifier: string, limit = 10, duration = 60_000, namespaceId = ns): OverrideValues =>
      ({ workspaceId: WORKSPACE_ID, namespaceId, identifier, limit, duration });
    const set = (identifier: string, limit = 10, duration = 60_000, namespaceId = ns) =>
      s.overrides.set(values(identifier, limit, duration, namespaceId), 1_000, id('rlor'));

    it('set inserts a new override with the given id and createdAt; get and findExact return it', async () => {
      const overrideId = id('rlor');
      const stored = await s.overrides.set(values('user_1', 5, 30_000), 1_234, overrideId);
      expect(stored).toEqual({ id: overrideId, workspaceId: WORKSPACE_ID, namespaceId: ns, identifier: 'user_1', limit: 5, duration: 30_000, createdAt: 1_234 });
      expect(await s.overrides.get(overrideId)).toEqual(stored);
      expect(await s.overrides.findExact(ns, 'user_1')).toEqual(stored);
      expect(await s.overrides.get('rlor_missing')).toBeNull();
      expect(await s.overrides.findExact(ns, 'user_2')).toBeNull();
    });

    it('set on an existing pair keeps id and createdAt, replaces limit and duration, sets updatedAt', async () => {
      const first = await set('user_1', 5, 30_000);
      const again = await s.overrides.set(values('user_1', 0, 90_000), 2_000, id('rlor'));
      expect(again).toEqual({ ...first, limit: 0, duration: 90_000, updatedAt: 2_000 });
      expect(await s.overrides.findExact(ns, 'user_1')).toEqual(again);
      expect(await s.overrides.list(ns, { limit: 10 })).toEqual([again]);
    });

    it('identifiers are exact and case-sensitive; namespaces are separate', async () => {
      const lower = await set('user');
      const upper = await set('USER');
      const other = await set('user', 10, 60_000, id('rlns'));
      expect(new Set([lower.id, upper.id, other.id]).size).toBe(3);
      expect((await s.overrides.findExact(ns, 'USER'))!.id).toBe(upper.id);
      expect(await s.overrides.findExact(ns, 'User')).toBeNull();
      expect((await s.overrides.list(ns, { limit: 10 })).map((o) => o.id).sort()).toEqual([lower.id, upper.id].sort());
    });

    it('findExact treats a pattern as a plain string: it finds itself, never what it matches', async () => {
      const pattern = await set('user_*');
      expect(await s.overrides.findExact(ns, 'user_*')).toEqual(pattern);
      expect(await s.overrides.findExact(ns, 'user_1')).toBeNull();
    });

    it('delete soft-deletes by exact identifier; a second delete and unknown identifiers return false', async () => {
      const o = await set('user_1');
      const pattern = await set('user_*');
      expect(await s.overrides.delete(ns, 'user_2', 5_000)).toBe(false);
      expect(await s.overrides.delete(ns, 'user_1', 5_000)).toBe(true);
      expect(await s.overrides.delete(ns, 'user_1', 6_000)).toBe(false);
      expect(await s.overrides.findExact(ns, 'user_1')).toBeNull();
      expect(await s.overrides.get(o.id)).toEqual({ ...o, deletedAt: 5_000 });
      expect(await s.overrides.list(ns, { limit: 10 })).toEqual([pattern]);
      expect(await s.overrides.delete(id('rlns'), 'user_*', 5_000)).toBe(false);
      expect(await s.overrides.findExact(ns, 'user_*')).toEqual(pattern);
    });

    it('set revives a deleted override with its id', async () => {
      const o = await set('user_*', 5);
      await s.overrides.delete(ns, 'user_*', 5_000);
      expect(await s.overrides.wildcards(ns)).toEqual([]);
      const revived = await s.overrides.set(values('user_*', 7), 6_000, id('rlor'));
      expect(revived).toEqual({ ...o, limit: 7, updatedAt: 6_000 });
      expect(revived.deletedAt).toBeUndefined();
      expect(await s.overrides.findExact(ns, 'user_*')).toEqual(revived);
      expect(await s.overrides.wildcards(ns)).toEqual([revived]);
      expect(await s.overrides.list(ns, { limit: 10 })).toEqual([revived]);
    });

    it('wildcards returns only the live patterns of the namespace, in id order', async () => {
      await set('exact_1');
      const a = await set('a*');
      await set('exact_2');
      const b = await set('*b*');
      await set('c*');
      await set('z*', 10, 60_000, id('rlns'));
      await s.overrides.delete(ns, 'c*', 2_000);
      expect(await s.overrides.wildcards(ns)).toEqual([a, b]);
      expect(await s.overrides.wildcards(id('rlns'))).toEqual([]);
    });

    it('list pages through live overrides in id order with an inclusive cursor', async () => {
      const made = [];
      for (let i = 0; i < 7; i++) made.push(await set(`user_${i}`));
      await s.overrides.delete(ns, 'user_3', 2_000);
      await set('other', 10, 60_000, id('rlns'));
      const live = made.filter((o) => o.identifier !== 'user_3');
      expect(await s.overrides.list(ns, { limit: 100 })).toEqual(live);
      expect(await s.overrides.list(ns, { limit: 2 })).toEqual(live.slice(0, 2));
      expect(await s.overrides.list(ns, { limit: 3, cursor: live[2]!.id })).toEqual(live.slice(2, 5));
      // The cursor is a lower bound, not necessarily an id that exists.
      expect(await s.overrides.list(ns, { limit: 100, cursor: made[3]!.id })).toEqual(live.slice(3));
      expect(await s.overrides.list(ns, { limit: 100, cursor: 'zzzz' })).toEqual([]);
      expect(await s.overrides.list(ns, { limit: 100, cursor: 'x'.repeat(1024) })).toEqual([]);
      expect(await s.overrides.list(id('rlns'), { limit: 100 })).toEqual([]);
    });

    it('identifiers of 512 characters of anything are stored and found', async () => {
      const long = '界'.repeat(511) + '*';
      const controls = 'a\u0000b\u0001/\n*';
      const o1 = await set(long);
      const o2 = await set(controls);
      expect(await s.overrides.findExact(ns, long)).toEqual(o1);
      expect(await s.overrides.findExact(ns, controls)).toEqual(o2);
      expect((await s.overrides.wildcards(ns)).map((o) => o.id).sort()).toEqual([o1.id, o2.id].sort());
    });

    it('concurrent sets of one pair end with one override', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => s.overrides.set(values('hot', i + 1), 1_000 + i, id('rlor'))));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      const listed = await s.overrides.list(ns, { limit: 100 });
      expect(listed).toHaveLength(1);
      expect(listed[0]!.id).toBe(results[0]!.id);
    });

    describe('matching through the store (src/ratelimit/overrides.ts)', () => {
      it('exact beats any pattern; otherwise the pattern with most literal characters wins', async () => {
        const any = await set('*');
        const prefix = await set('user_*');
        const both = await set('user_*_eu');
        const exact = await set('user_42_eu');
        expect((await findOverride(s.overrides, ns, 'user_42_eu'))!.id).toBe(exact.id);
        expect((await findOverride(s.overrides, ns, 'user_7_eu'))!.id).toBe(both.id);
        expect((await findOverride(s.overrides, ns, 'user_7'))!.id).toBe(prefix.id);
        expect((await findOverride(s.overrides, ns, 'admin'))!.id).toBe(any.id);
        await s.overrides.delete(ns, '*', 2_000);
        expect(await findOverride(s.overrides, ns, 'admin')).toBeNull();
      });

      it('patterns are whole-string globs: `*` is any run (even empty), everything else literal', async () => {
        const cases: [string, string, boolean][] = [
          ['admin_*', 'admin_', true], ['admin_*', 'admin_x', true], ['admin_*', 'xadmin_x', false],
          ['*_test', 'a_test', true], ['*_test', 'a_test_', false],
          ['*premium*', 'premium', true], ['*premium*', 'is-premium-user', true], ['*premium*', 'premiu', false],
          ['a*b*c', 'abc', true], ['a*b*c', 'axxbyyc', true], ['a*b*c', 'acb', false], ['a*b*c', 'abcx', false],
          ['u.?[0-9]+*', 'u.?[0-9]+42', true], ['u.?[0-9]+*', 'ux17', false],
          ['**x', 'x', true], ['*a*a*a*a*a*a*a*a*b', 'a'.repeat(500), false],
        ];
        for (const [pattern, identifier, expected] of cases) {
          const namespaceId = id('rlns');
          const o = await set(pattern, 10, 60_000, namespaceId);
          const found = await findOverride(s.overrides, namespaceId, identifier);
          expect({ pattern, identifier, matched: found?.id === o.id }).toEqual({ pattern, identifier, matched: expected });
        }
      });

      it('equally specific patterns: the smaller override id wins, whatever the order of creation', async () => {
        const first = await set('a*');
        const second = await set('*z');
        expect(first.id < second.id).toBe(true);
        expect((await findOverride(s.overrides, ns, 'az'))!.id).toBe(first.id);
        await s.overrides.delete(ns, 'a*', 2_000);
        expect((await findOverride(s.overrides, ns, 'az'))!.id).toBe(second.id);
      });
    });
  });
}
