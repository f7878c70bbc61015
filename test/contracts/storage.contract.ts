/**
 * Behavioural contract of the Storage interface (src/storage/types.ts). Every backend runs it:
 *
 *   describeStorage('lmdb', () => openLmdbStorage(dir), (s) => s.close(), { reopen: () => openLmdbStorage(dir) })
 *
 * `open` gives a fresh, empty storage per test; `close` tears it down (default: `storage.close()`).
 * `reopen`, when the backend keeps data across a close, opens the data of the storage just closed.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  WORKSPACE_ID, type ApiRecord, type CreditsRecord, type IdentityRecord, type KeyRecord, type NamespaceRecord, type RootKeyRecord,
} from '../../src/storage/records.js';
import { DuplicateError, type Storage } from '../../src/storage/types.js';

export interface StorageContractOptions {
  /** Opens the data of the storage last returned by `open` (or `reopen`), after it was closed. */
  readonly reopen?: () => Promise<Storage> | Storage;
}

const OTHER_WORKSPACE = 'ws_other';

let counter = 0;
const id = (prefix: string): string => `${prefix}_${(++counter).toString(36)}${randomBytes(6).toString('hex')}`;
const hash = (): string => randomBytes(32).toString('base64');

function rootKeyRecord(overrides: Partial<RootKeyRecord> = {}): RootKeyRecord {
  return { id: id('rk'), workspaceId: WORKSPACE_ID, hash: hash(), start: 'kgroot_abcd', permissions: ['api.*.read_api'], createdAt: 1_000, ...overrides };
}

function apiRecord(overrides: Partial<ApiRecord> = {}): ApiRecord {
  return { id: id('api'), workspaceId: WORKSPACE_ID, name: 'payments', keyspaceId: id('ks'), createdAt: 1_000, ...overrides };
}

function keyRecord(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id: id('key'),
    workspaceId: WORKSPACE_ID,
    apiId: 'api_1',
    keyspaceId: 'ks_1',
    hash: hash(),
    start: 'prod_3ZxK',
    enabled: true,
    hasCredits: false,
    ratelimits: [],
    permissions: [],
    roles: [],
    createdAt: 1_000,
    ...overrides,
  };
}

function identityRecord(overrides: Partial<IdentityRecord> = {}): IdentityRecord {
  return { id: id('id'), workspaceId: WORKSPACE_ID, externalId: `user_${randomBytes(4).toString('hex')}`, ratelimits: [], createdAt: 1_000, ...overrides };
}

function namespaceRecord(overrides: Partial<NamespaceRecord> = {}): NamespaceRecord {
  return { id: id('rlns'), workspaceId: WORKSPACE_ID, name: 'email.outbound', createdAt: 1_000, ...overrides };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

async function expectDuplicate(promise: Promise<unknown>, what: string): Promise<void> {
  const err = await rejection(promise);
  expect(err).toBeInstanceOf(DuplicateError);
  expect((err as DuplicateError).what).toBe(what);
}

export function describeStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void = (storage) => storage.close(),
  options: StorageContractOptions = {},
): void {
  describe(`Storage contract: ${impl}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
    });
    afterEach(async () => {
      await close(storage);
    });

    describe('rootKeys', () => {
      it('put, then get and findByHash return the record; unknown ones are null', async () => {
        const record = rootKeyRecord({ name: 'ops', permissions: ['api.*.read_api', 'ratelimit.*.limit'] });
        await storage.rootKeys.put(record);
        expect(await storage.rootKeys.get(record.id)).toEqual(record);
        expect(await storage.rootKeys.findByHash(record.hash)).toEqual(record);
        expect(await storage.rootKeys.get('rk_missing')).toBeNull();
        expect(await storage.rootKeys.findByHash(hash())).toBeNull();
      });

      it('put with a changed hash replaces the record and the old hash is no longer found', async () => {
        const record = rootKeyRecord();
        await storage.rootKeys.put(record);
        const replaced = { ...record, hash: hash(), permissions: ['api.*.create_key'] };
        await storage.rootKeys.put(replaced);
        expect(await storage.rootKeys.findByHash(record.hash)).toBeNull();
        expect(await storage.rootKeys.findByHash(replaced.hash)).toEqual(replaced);
        expect(await storage.rootKeys.get(record.id)).toEqual(replaced);
        expect(await storage.rootKeys.list()).toEqual([replaced]);
      });

      it('list returns every root key, revoked ones included, oldest first', async () => {
        const middle = rootKeyRecord({ id: 'rk_a', createdAt: 2_000 });
        const newest = rootKeyRecord({ id: 'rk_b', createdAt: 3_000 });
        const oldest = rootKeyRecord({ id: 'rk_c', createdAt: 1_000 });
        for (const r of [middle, newest, oldest]) await storage.rootKeys.put(r);
        await storage.rootKeys.revoke('rk_b', 5_000);
        const listed = await storage.rootKeys.list();
        expect(listed.map((r) => r.id)).toEqual(['rk_c', 'rk_a', 'rk_b']);
        expect(listed[2]!.revokedAt).toBe(5_000);
        expect(listed[0]).toEqual(oldest);
      });

      it('list is empty on a fresh storage', async () => {
        expect(await storage.rootKeys.list()).toEqual([]);
      });

      it('revoke marks the key revoked (still found by hash), is idempotent, and is false for unknown ids', async () => {
        const record = rootKeyRecord();
        await storage.rootKeys.put(record);
        expect(await storage.rootKeys.revoke(record.id, 7_000)).toBe(true);
        expect((await storage.rootKeys.get(record.id))!.revokedAt).toBe(7_000);
        const byHash = await storage.rootKeys.findByHash(record.hash);
        expect(byHash).toEqual({ ...record, revokedAt: 7_000 });
        // Revoking again succeeds and keeps the first revocation time.
        expect(await storage.rootKeys.revoke(record.id, 9_000)).toBe(true);
        expect((await storage.rootKeys.get(record.id))!.revokedAt).toBe(7_000);
        expect(await storage.rootKeys.revoke('rk_missing', 7_000)).toBe(false);
        expect(await storage.rootKeys.get('rk_missing')).toBeNull();
      });

      it('remove deletes the record and its hash; removing an unknown id is harmless', async () => {
        const gone = rootKeyRecord();
        const kept = rootKeyRecord();
        await storage.rootKeys.put(gone);
        await storage.rootKeys.put(kept);
        await storage.rootKeys.remove(gone.id);
        expect(await storage.rootKeys.get(gone.id)).toBeNull();
        expect(await storage.rootKeys.findByHash(gone.hash)).toBeNull();
        expect(await storage.rootKeys.list()).toEqual([kept]);
        await storage.rootKeys.remove(gone.id);
        await storage.rootKeys.remove('rk_never');
        expect(await storage.rootKeys.findByHash(kept.hash)).toEqual(kept);
      });
    });

    describe('apis', () => {
      it('insert then get; unknown is null', async () => {
        const api = apiRecord({ name: 'billing' });
        const deleted = apiRecord({ deletedAt: 2_000 });
        await storage.apis.insert(api);
        await storage.apis.insert(deleted);
        expect(await storage.apis.get(api.id)).toEqual(api);
        expect(await storage.apis.get(deleted.id)).toEqual(deleted);
        expect(await storage.apis.get('api_missing')).toBeNull();
      });

      it('markDeleted sets deletedAt once; false for an unknown or already deleted API', async () => {
        const api = apiRecord();
        const bystander = apiRecord();
        await storage.apis.insert(api);
        await storage.apis.insert(bystander);
        expect(await storage.apis.markDeleted(api.id, 5_000)).toBe(true);
        expect(await storage.apis.get(api.id)).toEqual({ ...api, deletedAt: 5_000 });
        expect(await storage.apis.markDeleted(api.id, 9_000)).toBe(false);
        expect((await storage.apis.get(api.id))!.deletedAt).toBe(5_000);
        expect(await storage.apis.markDeleted('api_missing', 5_000)).toBe(false);
        expect(await storage.apis.get('api_missing')).toBeNull();
        expect(await storage.apis.get(bystander.id)).toEqual(bystander);
      });

      it('concurrent markDeleted calls: exactly one wins', async () => {
        const api = apiRecord();
        await storage.apis.insert(api);
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => storage.apis.markDeleted(api.id, 1_000 + i)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await storage.apis.get(api.id))!.deletedAt).toBe(1_000 + results.indexOf(true));
      });

      it('list: live APIs of the workspace in id order, from the cursor (inclusive), at most limit', async () => {
        const apis = ['api_c', 'api_a', 'api_d', 'api_b'].map((apiId) => apiRecord({ id: apiId }));
        for (const api of apis) await storage.apis.insert(api);
        await storage.apis.insert(apiRecord({ id: 'api_e', workspaceId: OTHER_WORKSPACE }));
        await storage.apis.insert(apiRecord({ id: 'api_f', deletedAt: 1_500 }));
        expect(await storage.apis.markDeleted('api_d', 2_000)).toBe(true);
        const ids = async (options: { cursor?: string; limit?: number } = {}): Promise<string[]> =>
          (await storage.apis.list(WORKSPACE_ID, { limit: 100, ...options })).map((a) => a.id);
        expect(await ids()).toEqual(['api_a', 'api_b', 'api_c']);
        expect(await ids({ limit: 2 })).toEqual(['api_a', 'api_b']);
        expect(await ids({ cursor: 'api_b' })).toEqual(['api_b', 'api_c']);
        expect(await ids({ limit: 0 })).toEqual([]);
        expect((await storage.apis.list(WORKSPACE_ID, { limit: 1 }))[0]).toEqual(apis[1]);
        expect((await storage.apis.list(OTHER_WORKSPACE, { limit: 10 })).map((a) => a.id)).toEqual(['api_e']);
      });

      it('list is empty on a fresh storage', async () => {
        expect(await storage.apis.list(WORKSPACE_ID, { limit: 10 })).toEqual([]);
      });
    });

    describe('keys', () => {
      it('insert then get and findByHash return the full record; unknown ones are null', async () => {
        const key = keyRecord({
          name: 'checkout',
          meta: { plan: 'pro', nested: { list: [1, 'two', true], none: null } },
          identityId: 'id_1',
          expires: 9_999_999,
          ratelimits: [{ id: 'rl_1', name: 'requests', limit: 10, duration: 60_000, autoApply: true }],
          permissions: ['documents.read'],
          roles: ['admin'],
        });
        await storage.keys.insert(key, null);
        expect(await storage.keys.get(key.id)).toEqual(key);
        expect(await storage.keys.findByHash(key.hash)).toEqual(key);
        expect(await storage.keys.get('key_missing')).toBeNull();
        expect(await storage.keys.findByHash(hash())).toBeNull();
        expect(await storage.keys.getCredits(key.id)).toBeNull();
      });

      it('credits are stored with the key', async () => {
        const key = keyRecord({ hasCredits: true });
        // Refilled a moment ago: no refill is due, so the counter reads back exactly as stored.
        const credits: CreditsRecord = { remaining: 60, refill: { interval: 'monthly', amount: 100, refillDay: 31 }, lastRefillAt: Date.now() };
        await storage.keys.insert(key, credits);
        expect(await storage.keys.getCredits(key.id)).toEqual(credits);
        expect(await storage.keys.getCredits('key_missing')).toBeNull();
      });

      it('a refill that fell due since lastRefillAt is applied once, by reads and by spends', async () => {
        const DAY_MS = 86_400_000;
        const key = keyRecord({ hasCredits: true });
        await storage.keys.insert(key, { remaining: 1, refill: { interval: 'daily', amount: 10 }, lastRefillAt: Date.now() - 2 * DAY_MS });
        expect((await storage.keys.getCredits(key.id))!.remaining).toBe(10);
        expect(await storage.keys.spendCredits(key.id, 4)).toEqual({ passed: true, remaining: 6 });
        expect(await storage.keys.spendCredits(key.id, 4)).toEqual({ passed: true, remaining: 2 });
        const after = await storage.keys.getCredits(key.id);
        expect(after!.remaining).toBe(2);
        expect(after!.lastRefillAt).toBeGreaterThan(Date.now() - DAY_MS);

        // A refused spend still records the refill it found due, and reports the refilled balance.
        const poor = keyRecord({ hasCredits: true });
        await storage.keys.insert(poor, { remaining: 0, refill: { interval: 'monthly', amount: 5, refillDay: 1 }, lastRefillAt: Date.now() - 40 * DAY_MS });
        expect(await storage.keys.spendCredits(poor.id, 9)).toEqual({ passed: false, remaining: 5 });
        expect(await storage.keys.adjustCredits(poor.id, -1)).toMatchObject({ remaining: 4 });
      });

      it('a taken hash rejects with DuplicateError and leaves the original untouched', async () => {
        const original = keyRecord({ name: 'original', hasCredits: true });
        await storage.keys.insert(original, { remaining: 5 });
        const intruder = keyRecord({ hash: original.hash, name: 'intruder', hasCredits: true });
        await expectDuplicate(storage.keys.insert(intruder, { remaining: 1_000 }), 'hash');
        expect(await storage.keys.findByHash(original.hash)).toEqual(original);
        expect(await storage.keys.get(original.id)).toEqual(original);
        expect(await storage.keys.get(intruder.id)).toBeNull();
        expect(await storage.keys.getCredits(intruder.id)).toBeNull();
        expect(await storage.keys.getCredits(original.id)).toEqual({ remaining: 5 });
      });

      it('spendCredits takes the cost and reports what remains; the balance never goes below zero', async () => {
        const key = keyRecord({ hasCredits: true });
        const refill = { interval: 'daily', amount: 10 } as const;
        await storage.keys.insert(key, { remaining: 10, refill });
        expect(await storage.keys.spendCredits(key.id, 3)).toEqual({ passed: true, remaining: 7 });
        expect(await storage.keys.spendCredits(key.id, 1)).toEqual({ passed: true, remaining: 6 });
        // More than remains: fails and takes nothing.
        expect(await storage.keys.spendCredits(key.id, 7)).toEqual({ passed: false, remaining: 6 });
        expect((await storage.keys.getCredits(key.id))!.remaining).toBe(6);
        // Exactly what remains: passes down to zero.
        expect(await storage.keys.spendCredits(key.id, 6)).toEqual({ passed: true, remaining: 0 });
        expect(await storage.keys.spendCredits(key.id, 1)).toEqual({ passed: false, remaining: 0 });
        expect(await storage.keys.getCredits(key.id)).toEqual({ remaining: 0, refill });
      });

      it('spendCredits with cost 0 always passes, even at 0 remaining, and takes nothing', async () => {
        const key = keyRecord({ hasCredits: true });
        await storage.keys.insert(key, { remaining: 2 });
        expect(await storage.keys.spendCredits(key.id, 0)).toEqual({ passed: true, remaining: 2 });
        await storage.keys.spendCredits(key.id, 2);
        expect(await storage.keys.spendCredits(key.id, 0)).toEqual({ passed: true, remaining: 0 });
        expect((await storage.keys.getCredits(key.id))!.remaining).toBe(0);
      });

      it('a key with no credits counter is unlimited: spends pass with remaining null', async () => {
        const key = keyRecord();
        await storage.keys.insert(key, null);
        expect(await storage.keys.spendCredits(key.id, 1)).toEqual({ passed: true, remaining: null });
        expect(await storage.keys.spendCredits(key.id, 1_000_000)).toEqual({ passed: true, remaining: null });
        expect(await storage.keys.spendCredits(key.id, 0)).toEqual({ passed: true, remaining: null });
        expect(await storage.keys.getCredits(key.id)).toBeNull();
      });

      it('200 concurrent spends of 1 against 50 credits: exactly 50 pass and the balance ends at 0', async () => {
        const key = keyRecord({ hasCredits: true });
        const bystander = keyRecord({ hasCredits: true });
        await storage.keys.insert(key, { remaining: 50 });
        await storage.keys.insert(bystander, { remaining: 50 });
        const outcomes = await Promise.all(Array.from({ length: 200 }, () => storage.keys.spendCredits(key.id, 1)));
        const passed = outcomes.filter((o) => o.passed);
        expect(passed).toHaveLength(50);
        // Every successful spend saw a distinct balance: no two took the same credit.
        expect(passed.map((o) => o.remaining).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 50 }, (_, i) => i));
        expect(outcomes.filter((o) => !o.passed).every((o) => o.remaining === 0)).toBe(true);
        expect((await storage.keys.getCredits(key.id))!.remaining).toBe(0);
        expect((await storage.keys.getCredits(bystander.id))!.remaining).toBe(50);
      });

      it('concurrent spends of different costs never overdraw', async () => {
        const key = keyRecord({ hasCredits: true });
        await storage.keys.insert(key, { remaining: 100 });
        const costs = Array.from({ length: 60 }, (_, i) => (i % 7) + 1);
        const outcomes = await Promise.all(costs.map((c) => storage.keys.spendCredits(key.id, c)));
        const spent = outcomes.reduce((sum, o, i) => sum + (o.passed ? costs[i]! : 0), 0);
        const left = (await storage.keys.getCredits(key.id))!.remaining;
        expect(left).toBeGreaterThanOrEqual(0);
        expect(spent + left).toBe(100);
        // Denied only when the cost really did not fit at that moment: nothing left fits any denied cost.
        for (const [i, o] of outcomes.entries()) if (!o.passed) expect(o.remaining!).toBeLessThan(costs[i]!);
      });

      it('update replaces the record; credits and hasCredits are left alone', async () => {
        const key = keyRecord({ name: 'before', meta: { a: 1 }, hasCredits: true, identityId: 'id_1' });
        await storage.keys.insert(key, { remaining: 7 });
        const { identityId: _dropped, ...withoutIdentity } = key;
        const updated: KeyRecord = { ...withoutIdentity, name: 'after', meta: { b: 2 }, enabled: false, permissions: ['x.y'], hasCredits: false, updatedAt: 2_000 };
        await storage.keys.update(updated);
        expect(await storage.keys.get(key.id)).toEqual({ ...updated, hasCredits: true });
        expect(await storage.keys.findByHash(key.hash)).toEqual({ ...updated, hasCredits: true });
        expect(await storage.keys.getCredits(key.id)).toEqual({ remaining: 7 });
      });

      it('update with a new hash moves the index: the old hash is no longer found', async () => {
        const key = keyRecord();
        await storage.keys.insert(key, null);
        const rehashed = { ...key, hash: hash() };
        await storage.keys.update(rehashed);
        expect(await storage.keys.findByHash(key.hash)).toBeNull();
        expect(await storage.keys.findByHash(rehashed.hash)).toEqual(rehashed);
        expect(await storage.keys.get(key.id)).toEqual(rehashed);
        // The old hash is free again.
        const newcomer = keyRecord({ hash: key.hash });
        await storage.keys.insert(newcomer, null);
        expect(await storage.keys.findByHash(key.hash)).toEqual(newcomer);
      });

      it('update to a hash another key holds rejects with DuplicateError and changes nothing', async () => {
        const a = keyRecord({ name: 'a' });
        const b = keyRecord({ name: 'b' });
        await storage.keys.insert(a, null);
        await storage.keys.insert(b, null);
        await expectDuplicate(storage.keys.update({ ...a, hash: b.hash, name: 'stolen' }), 'hash');
        expect(await storage.keys.get(a.id)).toEqual(a);
        expect(await storage.keys.findByHash(a.hash)).toEqual(a);
        expect(await storage.keys.findByHash(b.hash)).toEqual(b);
      });

      it('modify applies concurrent changes one after another: none is lost', async () => {
        const key = keyRecord({ permissions: [] });
        await storage.keys.insert(key, { remaining: 2 });
        const slugs = Array.from({ length: 20 }, (_, i) => `p${i}`);
        await Promise.all(slugs.map((slug) => storage.keys.modify(key.id, (k) => ({ ...k, permissions: [...k.permissions, slug] }))));
        const stored = await storage.keys.get(key.id);
        expect([...stored!.permissions].sort()).toEqual([...slugs].sort());
        expect(stored!.hasCredits).toBe(true);
      });

      it('modify resolves the stored record, null for an unknown key; a null change writes nothing', async () => {
        const key = keyRecord({ name: 'before' });
        await storage.keys.insert(key, null);
        expect(await storage.keys.modify('key_unknown', (k) => ({ ...k, name: 'x' }))).toBeNull();
        expect(await storage.keys.modify(key.id, () => null)).toEqual(key);
        const after = await storage.keys.modify(key.id, (k) => ({ ...k, name: 'after', hash: hash() }));
        expect(after!.name).toBe('after');
        expect(await storage.keys.findByHash(key.hash)).toBeNull();
        expect(await storage.keys.findByHash(after!.hash)).toEqual(after);
        const other = keyRecord();
        await storage.keys.insert(other, null);
        await expectDuplicate(storage.keys.modify(key.id, (k) => ({ ...k, hash: other.hash })), 'hash');
        expect(await storage.keys.get(key.id)).toEqual(after);
      });

      it('delete removes the key, its hash, its credits and its listing; false for an unknown key', async () => {
        const key = keyRecord({ apiId: 'api_del', hasCredits: true });
        const kept = keyRecord({ apiId: 'api_del' });
        await storage.keys.insert(key, { remaining: 3 });
        await storage.keys.insert(kept, null);
        expect(await storage.keys.delete(key.id)).toBe(true);
        expect(await storage.keys.get(key.id)).toBeNull();
        expect(await storage.keys.findByHash(key.hash)).toBeNull();
        expect(await storage.keys.getCredits(key.id)).toBeNull();
        expect(await storage.keys.listByApi('api_del', { limit: 10 })).toEqual([kept]);
        expect(await storage.keys.delete(key.id)).toBe(false);
        expect(await storage.keys.delete('key_missing')).toBe(false);
        expect(await storage.keys.get(kept.id)).toEqual(kept);
        // Its hash can be used again.
        await storage.keys.insert(keyRecord({ hash: key.hash }), null);
      });

      it('listByApi returns the keys of one API in id order, up to limit', async () => {
        const mine = [keyRecord({ id: 'key_c', apiId: 'api_x' }), keyRecord({ id: 'key_a', apiId: 'api_x' }), keyRecord({ id: 'key_b', apiId: 'api_x' })];
        const theirs = [keyRecord({ id: 'key_0', apiId: 'api_y' }), keyRecord({ id: 'key_bb', apiId: 'api_x_y' }), keyRecord({ id: 'key_ab', apiId: 'api_' })];
        for (const k of [...mine, ...theirs]) await storage.keys.insert(k, null);
        expect((await storage.keys.listByApi('api_x', { limit: 10 })).map((k) => k.id)).toEqual(['key_a', 'key_b', 'key_c']);
        expect(await storage.keys.listByApi('api_x', { limit: 10 })).toEqual([mine[1], mine[2], mine[0]]);
        expect((await storage.keys.listByApi('api_x', { limit: 2 })).map((k) => k.id)).toEqual(['key_a', 'key_b']);
        expect((await storage.keys.listByApi('api_x', { limit: 1 })).map((k) => k.id)).toEqual(['key_a']);
        expect(await storage.keys.listByApi('api_missing', { limit: 10 })).toEqual([]);
        expect((await storage.keys.listByApi('api_', { limit: 10 })).map((k) => k.id)).toEqual(['key_ab']);
      });

      it('listByApi: the cursor is an inclusive lower bound on the key id', async () => {
        for (const id of ['key_a', 'key_b', 'key_c', 'key_d']) await storage.keys.insert(keyRecord({ id, apiId: 'api_cur' }), null);
        const ids = async (cursor: string, limit = 10) => (await storage.keys.listByApi('api_cur', { cursor, limit })).map((k) => k.id);
        expect(await ids('key_b')).toEqual(['key_b', 'key_c', 'key_d']);
        expect(await ids('key_bb')).toEqual(['key_c', 'key_d']);
        expect(await ids('key_b', 2)).toEqual(['key_b', 'key_c']);
        expect(await ids('')).toEqual(['key_a', 'key_b', 'key_c', 'key_d']);
        expect(await ids('key_e')).toEqual([]);
        expect(await ids('a')).toEqual(['key_a', 'key_b', 'key_c', 'key_d']);
        // Long cursors bound the range like short ones (lmdb-js encodes long keys differently).
        expect(await ids(`key_b${'z'.repeat(100)}`)).toEqual(['key_c', 'key_d']);
        expect(await ids('z'.repeat(1000))).toEqual([]);
      });

      it('listByApi with identityId returns only that identity\'s keys, limit counting matches only', async () => {
        const keys = [
          keyRecord({ id: 'key_1', apiId: 'api_idn', identityId: 'id_a' }),
          keyRecord({ id: 'key_2', apiId: 'api_idn' }),
          keyRecord({ id: 'key_3', apiId: 'api_idn', identityId: 'id_b' }),
          keyRecord({ id: 'key_4', apiId: 'api_idn', identityId: 'id_a' }),
          keyRecord({ id: 'key_5', apiId: 'api_idn', identityId: 'id_a' }),
          keyRecord({ id: 'key_6', apiId: 'api_other', identityId: 'id_a' }),
        ];
        for (const k of keys) await storage.keys.insert(k, null);
        const ids = async (options: { cursor?: string; limit: number; identityId?: string }) => (await storage.keys.listByApi('api_idn', options)).map((k) => k.id);
        expect(await ids({ limit: 10, identityId: 'id_a' })).toEqual(['key_1', 'key_4', 'key_5']);
        expect(await ids({ limit: 2, identityId: 'id_a' })).toEqual(['key_1', 'key_4']);
        expect(await ids({ limit: 10, identityId: 'id_a', cursor: 'key_2' })).toEqual(['key_4', 'key_5']);
        expect(await ids({ limit: 10, identityId: 'id_b' })).toEqual(['key_3']);
        expect(await ids({ limit: 10, identityId: 'id_none' })).toEqual([]);
      });

      it('setCredits sets or removes the counter and keeps hasCredits in step; false for an unknown key', async () => {
        const key = keyRecord();
        await storage.keys.insert(key, null);
        const credits: CreditsRecord = { remaining: 10, refill: { interval: 'daily', amount: 10 } };
        expect(await storage.keys.setCredits(key.id, credits)).toBe(true);
        expect(await storage.keys.getCredits(key.id)).toEqual(credits);
        expect((await storage.keys.get(key.id))!.hasCredits).toBe(true);
        expect((await storage.keys.findByHash(key.hash))!.hasCredits).toBe(true);
        expect(await storage.keys.spendCredits(key.id, 4)).toEqual({ passed: true, remaining: 6 });

        expect(await storage.keys.setCredits(key.id, { remaining: 2 })).toBe(true);
        expect(await storage.keys.getCredits(key.id)).toEqual({ remaining: 2 });

        expect(await storage.keys.setCredits(key.id, null)).toBe(true);
        expect(await storage.keys.getCredits(key.id)).toBeNull();
        expect(await storage.keys.get(key.id)).toEqual({ ...key, hasCredits: false });
        expect(await storage.keys.spendCredits(key.id, 100)).toEqual({ passed: true, remaining: null });

        expect(await storage.keys.setCredits('key_missing', { remaining: 1 })).toBe(false);
        expect(await storage.keys.getCredits('key_missing')).toBeNull();
        expect(await storage.keys.get('key_missing')).toBeNull();
      });

      it('adjustCredits adds and takes, floors at 0, and is null for unlimited or unknown keys', async () => {
        const key = keyRecord({ hasCredits: true });
        const refill = { interval: 'monthly', amount: 50, refillDay: 1 } as const;
        await storage.keys.insert(key, { remaining: 10, refill });
        expect(await storage.keys.adjustCredits(key.id, 5)).toEqual({ remaining: 15, refill });
        expect(await storage.keys.adjustCredits(key.id, -3)).toEqual({ remaining: 12, refill });
        expect(await storage.keys.adjustCredits(key.id, -100)).toEqual({ remaining: 0, refill });
        expect(await storage.keys.getCredits(key.id)).toEqual({ remaining: 0, refill });

        const unlimited = keyRecord();
        await storage.keys.insert(unlimited, null);
        expect(await storage.keys.adjustCredits(unlimited.id, 5)).toBeNull();
        expect(await storage.keys.getCredits(unlimited.id)).toBeNull();
        expect(await storage.keys.adjustCredits('key_missing', 5)).toBeNull();
      });

      it('concurrent adjustCredits calls all apply', async () => {
        const key = keyRecord({ hasCredits: true });
        await storage.keys.insert(key, { remaining: 100 });
        await Promise.all(Array.from({ length: 50 }, (_, i) => storage.keys.adjustCredits(key.id, i % 2 === 0 ? 3 : -1)));
        expect((await storage.keys.getCredits(key.id))!.remaining).toBe(100 + 25 * 3 - 25);
      });
    });

    describe('identities', () => {
      it('insert then get and findByExternalId; unknown ones are null', async () => {
        const identity = identityRecord({ externalId: 'user_42', meta: { tier: 'gold' }, ratelimits: [{ id: 'rl_9', name: 'tokens', limit: 100, duration: 1000, autoApply: false }] });
        await storage.identities.insert(identity);
        expect(await storage.identities.get(identity.id)).toEqual(identity);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'user_42')).toEqual(identity);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'user_43')).toBeNull();
        expect(await storage.identities.findByExternalId(OTHER_WORKSPACE, 'user_42')).toBeNull();
        expect(await storage.identities.get('id_missing')).toBeNull();
      });

      it('externalId is unique per workspace (case-sensitive); the original stays', async () => {
        const original = identityRecord({ externalId: 'acme' });
        await storage.identities.insert(original);
        const again = identityRecord({ externalId: 'acme' });
        await expectDuplicate(storage.identities.insert(again), 'externalId');
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'acme')).toEqual(original);
        expect(await storage.identities.get(again.id)).toBeNull();

        const elsewhere = identityRecord({ externalId: 'acme', workspaceId: OTHER_WORKSPACE });
        await storage.identities.insert(elsewhere);
        expect(await storage.identities.findByExternalId(OTHER_WORKSPACE, 'acme')).toEqual(elsewhere);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'acme')).toEqual(original);

        const otherCase = identityRecord({ externalId: 'ACME' });
        await storage.identities.insert(otherCase);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'ACME')).toEqual(otherCase);
      });

      it('getOrCreate returns the existing identity without creating', async () => {
        const existing = identityRecord({ externalId: 'user_1' });
        await storage.identities.insert(existing);
        let created = 0;
        const got = await storage.identities.getOrCreate(WORKSPACE_ID, 'user_1', () => {
          created++;
          return identityRecord({ externalId: 'user_1' });
        });
        expect(got).toEqual(existing);
        expect(created).toBe(0);
      });

      it('getOrCreate creates when missing, then finds it', async () => {
        const fresh = identityRecord({ externalId: 'user_new' });
        expect(await storage.identities.getOrCreate(WORKSPACE_ID, 'user_new', () => fresh)).toEqual(fresh);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'user_new')).toEqual(fresh);
        expect(await storage.identities.get(fresh.id)).toEqual(fresh);
        // Same externalId in another workspace is another identity.
        const other = identityRecord({ externalId: 'user_new', workspaceId: OTHER_WORKSPACE });
        expect(await storage.identities.getOrCreate(OTHER_WORKSPACE, 'user_new', () => other)).toEqual(other);
      });

      it('50 concurrent getOrCreate calls create exactly one identity', async () => {
        const candidates: IdentityRecord[] = [];
        const results = await Promise.all(Array.from({ length: 50 }, () => storage.identities.getOrCreate(WORKSPACE_ID, 'racer', () => {
          const r = identityRecord({ externalId: 'racer' });
          candidates.push(r);
          return r;
        })));
        const winner = results[0]!;
        expect(new Set(results.map((r) => r.id))).toEqual(new Set([winner.id]));
        expect(candidates.map((c) => c.id)).toContain(winner.id);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'racer')).toEqual(winner);
        for (const loser of candidates.filter((c) => c.id !== winner.id)) expect(await storage.identities.get(loser.id)).toBeNull();
      });

      it('update replaces the record (same id and externalId)', async () => {
        const identity = identityRecord({ externalId: 'changing', meta: { a: 1 }, ratelimits: [{ id: 'rl_1', name: 'requests', limit: 1, duration: 1000, autoApply: true }] });
        await storage.identities.insert(identity);
        const { meta: _meta, ...withoutMeta } = identity;
        const updated: IdentityRecord = { ...withoutMeta, ratelimits: [{ id: 'rl_2', name: 'tokens', limit: 9, duration: 2000, autoApply: false }], updatedAt: 3_000 };
        await storage.identities.update(updated);
        expect(await storage.identities.get(identity.id)).toEqual(updated);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'changing')).toEqual(updated);
      });

      it('delete removes the identity and frees its externalId; false for an unknown one', async () => {
        const identity = identityRecord({ externalId: 'leaving' });
        const bystander = identityRecord({ externalId: 'staying' });
        await storage.identities.insert(identity);
        await storage.identities.insert(bystander);
        expect(await storage.identities.delete(identity.id)).toBe(true);
        expect(await storage.identities.get(identity.id)).toBeNull();
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'leaving')).toBeNull();
        expect(await storage.identities.delete(identity.id)).toBe(false);
        expect(await storage.identities.delete('id_missing')).toBe(false);
        expect(await storage.identities.get(bystander.id)).toEqual(bystander);

        // The externalId is reusable at once, by insert and by getOrCreate.
        const successor = identityRecord({ externalId: 'leaving' });
        await storage.identities.insert(successor);
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'leaving')).toEqual(successor);
        expect(await storage.identities.delete(successor.id)).toBe(true);
        const third = identityRecord({ externalId: 'leaving' });
        expect(await storage.identities.getOrCreate(WORKSPACE_ID, 'leaving', () => third)).toEqual(third);
      });

      it('list returns a workspace\'s identities in id order, up to limit, from an inclusive cursor', async () => {
        for (const [idValue, externalId] of [['id_c', 'carol'], ['id_a', 'alice'], ['id_d', 'dave'], ['id_b', 'bob']]) {
          await storage.identities.insert(identityRecord({ id: idValue, externalId }));
        }
        await storage.identities.insert(identityRecord({ id: 'id_bb', externalId: 'elsewhere', workspaceId: OTHER_WORKSPACE }));
        const ids = async (options: { cursor?: string; limit: number; search?: string }, ws = WORKSPACE_ID) => (await storage.identities.list(ws, options)).map((i) => i.id);
        expect(await ids({ limit: 10 })).toEqual(['id_a', 'id_b', 'id_c', 'id_d']);
        expect(await ids({ limit: 2 })).toEqual(['id_a', 'id_b']);
        expect(await ids({ limit: 10, cursor: 'id_b' })).toEqual(['id_b', 'id_c', 'id_d']);
        expect(await ids({ limit: 10, cursor: 'id_bb' })).toEqual(['id_c', 'id_d']);
        expect(await ids({ limit: 1, cursor: 'id_c' })).toEqual(['id_c']);
        expect(await ids({ limit: 10, cursor: 'id_e' })).toEqual([]);
        expect(await ids({ limit: 10 }, OTHER_WORKSPACE)).toEqual(['id_bb']);
        expect(await ids({ limit: 10 }, 'ws_empty')).toEqual([]);
        expect((await storage.identities.list(WORKSPACE_ID, { limit: 1 }))[0]!.externalId).toBe('alice');
      });

      it('list search matches the id or the externalId, case-insensitively, within the workspace', async () => {
        await storage.identities.insert(identityRecord({ id: 'id_Org1', externalId: 'Acme-Corp' }));
        await storage.identities.insert(identityRecord({ id: 'id_Org2', externalId: 'globex' }));
        await storage.identities.insert(identityRecord({ id: 'id_Usr3', externalId: 'acme.user' }));
        await storage.identities.insert(identityRecord({ id: 'id_Org4', externalId: 'acme-other', workspaceId: OTHER_WORKSPACE }));
        const ids = async (search: string, options: { cursor?: string; limit?: number } = {}) =>
          (await storage.identities.list(WORKSPACE_ID, { limit: options.limit ?? 10, search, ...(options.cursor ? { cursor: options.cursor } : {}) })).map((i) => i.id);
        expect(await ids('acme')).toEqual(['id_Org1', 'id_Usr3']);
        expect(await ids('ACME-')).toEqual(['id_Org1']);
        expect(await ids('org')).toEqual(['id_Org1', 'id_Org2']);
        expect(await ids('ID_USR')).toEqual(['id_Usr3']);
        expect(await ids('nothing')).toEqual([]);
        expect(await ids('acme', { limit: 1 })).toEqual(['id_Org1']);
        expect(await ids('acme', { cursor: 'id_Org2' })).toEqual(['id_Usr3']);
      });
    });

    describe('namespaces', () => {
      it('getOrCreate creates once, then returns the same record', async () => {
        const ns = namespaceRecord({ name: 'api.requests' });
        expect(await storage.namespaces.getOrCreate(WORKSPACE_ID, 'api.requests', () => ns)).toEqual(ns);
        let created = 0;
        const again = await storage.namespaces.getOrCreate(WORKSPACE_ID, 'api.requests', () => {
          created++;
          return namespaceRecord({ name: 'api.requests' });
        });
        expect(again).toEqual(ns);
        expect(created).toBe(0);
      });

      it('find looks up by id and by name; unknown is null', async () => {
        const ns = namespaceRecord({ name: 'sms' });
        await storage.namespaces.getOrCreate(WORKSPACE_ID, 'sms', () => ns);
        expect(await storage.namespaces.find(WORKSPACE_ID, ns.id)).toEqual(ns);
        expect(await storage.namespaces.find(WORKSPACE_ID, 'sms')).toEqual(ns);
        expect(await storage.namespaces.find(WORKSPACE_ID, 'SMS')).toBeNull();
        expect(await storage.namespaces.find(WORKSPACE_ID, 'rlns_missing')).toBeNull();
      });

      it('markDeleted sets deletedAt once; find still returns the record; unknown is false', async () => {
        const ns = namespaceRecord({ name: 'to-delete' });
        await storage.namespaces.getOrCreate(WORKSPACE_ID, 'to-delete', () => ns);
        expect(await storage.namespaces.markDeleted(ns.id, 5_000)).toBe(true);
        expect(await storage.namespaces.find(WORKSPACE_ID, 'to-delete')).toEqual({ ...ns, deletedAt: 5_000 });
        expect(await storage.namespaces.markDeleted(ns.id, 6_000)).toBe(false);
        expect((await storage.namespaces.find(WORKSPACE_ID, ns.id))!.deletedAt).toBe(5_000);
        expect(await storage.namespaces.markDeleted('rlns_missing', 1)).toBe(false);
      });

      it('find prefers the id when a name equals another namespace id', async () => {
        const first = namespaceRecord({ name: 'first' });
        await storage.namespaces.getOrCreate(WORKSPACE_ID, 'first', () => first);
        const lookalike = namespaceRecord({ name: first.id });
        await storage.namespaces.getOrCreate(WORKSPACE_ID, first.id, () => lookalike);
        expect(await storage.namespaces.find(WORKSPACE_ID, first.id)).toEqual(first);
        expect(await storage.namespaces.find(WORKSPACE_ID, lookalike.id)).toEqual(lookalike);
      });

      it('workspaces are isolated: by id, by name, and for getOrCreate', async () => {
        const mine = namespaceRecord({ name: 'shared-name' });
        await storage.namespaces.getOrCreate(WORKSPACE_ID, 'shared-name', () => mine);
        expect(await storage.namespaces.find(OTHER_WORKSPACE, mine.id)).toBeNull();
        expect(await storage.namespaces.find(OTHER_WORKSPACE, 'shared-name')).toBeNull();

        const theirs = namespaceRecord({ name: 'shared-name', workspaceId: OTHER_WORKSPACE });
        expect(await storage.namespaces.getOrCreate(OTHER_WORKSPACE, 'shared-name', () => theirs)).toEqual(theirs);
        expect(await storage.namespaces.find(OTHER_WORKSPACE, 'shared-name')).toEqual(theirs);
        expect(await storage.namespaces.find(WORKSPACE_ID, 'shared-name')).toEqual(mine);
        expect(await storage.namespaces.find(WORKSPACE_ID, theirs.id)).toBeNull();
      });

      it('50 concurrent getOrCreate calls create exactly one namespace', async () => {
        const candidates: NamespaceRecord[] = [];
        const results = await Promise.all(Array.from({ length: 50 }, () => storage.namespaces.getOrCreate(WORKSPACE_ID, 'burst', () => {
          const r = namespaceRecord({ name: 'burst' });
          candidates.push(r);
          return r;
        })));
        const winner = results[0]!;
        expect(new Set(results.map((r) => r.id))).toEqual(new Set([winner.id]));
        expect(await storage.namespaces.find(WORKSPACE_ID, 'burst')).toEqual(winner);
        expect(await storage.namespaces.find(WORKSPACE_ID, winner.id)).toEqual(winner);
        for (const loser of candidates.filter((c) => c.id !== winner.id)) expect(await storage.namespaces.find(WORKSPACE_ID, loser.id)).toBeNull();
        expect((await storage.namespaces.list(WORKSPACE_ID, { limit: 100 })).map((n) => n.id)).toEqual([winner.id]);
      });

      it('list: live namespaces of the workspace in id order; cursor, limit and search over id and name', async () => {
        const made = [['rlns_c', 'sms'], ['rlns_a', 'email.outbound'], ['rlns_b', 'Email.Inbound'], ['rlns_d', 'gone']]
          .map(([nsId, name]) => namespaceRecord({ id: nsId!, name: name! }));
        for (const ns of made) await storage.namespaces.getOrCreate(WORKSPACE_ID, ns.name, () => ns);
        await storage.namespaces.getOrCreate(OTHER_WORKSPACE, 'sms', () => namespaceRecord({ id: 'rlns_e', name: 'sms', workspaceId: OTHER_WORKSPACE }));
        expect(await storage.namespaces.markDeleted('rlns_d', 2_000)).toBe(true);
        const ids = async (options: { cursor?: string; limit?: number; search?: string } = {}): Promise<string[]> =>
          (await storage.namespaces.list(WORKSPACE_ID, { limit: 100, ...options })).map((n) => n.id);
        expect(await ids()).toEqual(['rlns_a', 'rlns_b', 'rlns_c']);
        expect(await ids({ limit: 1 })).toEqual(['rlns_a']);
        expect(await ids({ cursor: 'rlns_b' })).toEqual(['rlns_b', 'rlns_c']);
        expect(await ids({ search: 'EMAIL' })).toEqual(['rlns_a', 'rlns_b']);
        expect(await ids({ search: 'rlns_c' })).toEqual(['rlns_c']);
        expect(await ids({ search: 'gone' })).toEqual([]);
        expect((await storage.namespaces.list(WORKSPACE_ID, { limit: 1 }))[0]).toEqual(made[1]);
        expect((await storage.namespaces.list(OTHER_WORKSPACE, { limit: 10 })).map((n) => n.id)).toEqual(['rlns_e']);
      });
    });

    const { reopen } = options;
    if (reopen) {
      it('data written before a close is there after reopening', async () => {
        const rk = rootKeyRecord({ name: 'kept' });
        const replacedRk = rootKeyRecord();
        const api = apiRecord();
        const key = keyRecord({ hasCredits: true, apiId: api.id });
        const plainKey = keyRecord();
        const identity = identityRecord({ externalId: 'durable' });
        const ns = namespaceRecord({ name: 'durable-ns' });

        await storage.rootKeys.put(rk);
        await storage.rootKeys.put(replacedRk);
        const newHash = hash();
        await storage.rootKeys.put({ ...replacedRk, hash: newHash });
        await storage.rootKeys.revoke(rk.id, 4_000);
        await storage.apis.insert(api);
        await storage.keys.insert(key, { remaining: 10 });
        await storage.keys.insert(plainKey, null);
        await storage.keys.spendCredits(key.id, 4);
        await storage.identities.insert(identity);
        await storage.namespaces.getOrCreate(WORKSPACE_ID, 'durable-ns', () => ns);

        await storage.close();
        storage = await reopen();

        expect(await storage.rootKeys.findByHash(rk.hash)).toEqual({ ...rk, revokedAt: 4_000 });
        expect(await storage.rootKeys.findByHash(replacedRk.hash)).toBeNull();
        expect((await storage.rootKeys.findByHash(newHash))?.id).toBe(replacedRk.id);
        expect(await storage.apis.get(api.id)).toEqual(api);
        expect(await storage.keys.findByHash(key.hash)).toEqual(key);
        expect(await storage.keys.findByHash(plainKey.hash)).toEqual(plainKey);
        expect(await storage.keys.getCredits(key.id)).toEqual({ remaining: 6 });
        expect(await storage.keys.spendCredits(key.id, 6)).toEqual({ passed: true, remaining: 0 });
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'durable')).toEqual(identity);
        expect(await storage.namespaces.find(WORKSPACE_ID, 'durable-ns')).toEqual(ns);
        // Unique indexes survive too.
        await expectDuplicate(storage.keys.insert(keyRecord({ hash: key.hash }), null), 'hash');
        await expectDuplicate(storage.identities.insert(identityRecord({ externalId: 'durable' })), 'externalId');
        expect(await storage.namespaces.getOrCreate(WORKSPACE_ID, 'durable-ns', () => namespaceRecord({ name: 'durable-ns' }))).toEqual(ns);
      });

      it('updates and deletes made before a close are there after reopening', async () => {
        const api = apiRecord();
        const gone = keyRecord({ apiId: api.id, hasCredits: true });
        const changed = keyRecord({ apiId: api.id });
        const identity = identityRecord({ externalId: 'deleted-before-close' });
        const edited = identityRecord({ externalId: 'edited-before-close' });
        await storage.apis.insert(api);
        await storage.keys.insert(gone, { remaining: 5 });
        await storage.keys.insert(changed, null);
        await storage.identities.insert(identity);
        await storage.identities.insert(edited);

        await storage.apis.markDeleted(api.id, 6_000);
        await storage.keys.delete(gone.id);
        const rehashed = { ...changed, hash: hash(), name: 'renamed' };
        await storage.keys.update(rehashed);
        await storage.keys.setCredits(changed.id, { remaining: 8 });
        await storage.keys.adjustCredits(changed.id, -3);
        await storage.identities.delete(identity.id);
        await storage.identities.update({ ...edited, meta: { v: 2 } });

        await storage.close();
        storage = await reopen();

        expect((await storage.apis.get(api.id))!.deletedAt).toBe(6_000);
        expect(await storage.keys.get(gone.id)).toBeNull();
        expect(await storage.keys.findByHash(gone.hash)).toBeNull();
        expect(await storage.keys.findByHash(changed.hash)).toBeNull();
        expect(await storage.keys.findByHash(rehashed.hash)).toEqual({ ...rehashed, hasCredits: true });
        expect(await storage.keys.getCredits(changed.id)).toEqual({ remaining: 5 });
        expect((await storage.keys.listByApi(api.id, { limit: 10 })).map((k) => k.id)).toEqual([changed.id]);
        expect(await storage.identities.get(identity.id)).toBeNull();
        expect(await storage.identities.findByExternalId(WORKSPACE_ID, 'deleted-before-close')).toBeNull();
        expect((await storage.identities.get(edited.id))!.meta).toEqual({ v: 2 });
      });
    }
  });
}
