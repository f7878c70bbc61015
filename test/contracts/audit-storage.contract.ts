/**
 * Behavioural contract of the audit log (src/audit/event.ts, Storage.audit and the `event`
 * argument of the write methods). Every backend runs it; `open`/`close` as in storage.contract.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditEvent } from '../../src/audit/context.js';
import type { AuditEvent, AuditTarget } from '../../src/audit/event.js';
import { WORKSPACE_ID, type ApiRecord, type IdentityRecord, type RootKeyRecord } from '../../src/storage/records.js';
import type { Storage } from '../../src/storage/types.js';
import { key, permission, role } from './rbac-records.js';

const id = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;

/** An event at `timeMs` by root key `actor`, naming `targets`. */
function event(timeMs: number, targets: AuditTarget[], procedure = 'test.change', actor = 'rk_tester'): AuditEvent {
  return auditEvent({ actor: { type: 'root_key', id: actor, name: 'tester' }, workspaceId: WORKSPACE_ID, procedure, requestId: id('req') },
    { targets, summary: `${procedure} at ${timeMs}` }, timeMs);
}

const api = (): ApiRecord => ({ id: id('api'), workspaceId: WORKSPACE_ID, name: 'payments', keyspaceId: id('ks'), createdAt: 1_000 });
const identity = (): IdentityRecord => ({ id: id('id'), workspaceId: WORKSPACE_ID, externalId: id('user'), ratelimits: [], createdAt: 1_000 });
const rootKey = (): RootKeyRecord => ({ id: id('rk'), workspaceId: WORKSPACE_ID, hash: randomBytes(32).toString('base64'), start: 'kgroot_ab', permissions: [], createdAt: 1_000 });

export function describeAuditStorage(
  impl: string,
  open: () => Promise<Storage> | Storage,
  close: (storage: Storage) => Promise<void> | void = (storage) => storage.close(),
): void {
  describe(`audit log contract: ${impl}`, () => {
    let storage: Storage;
    beforeEach(async () => { storage = await open(); });
    afterEach(async () => { await close(storage); });

    const all = async (query: Partial<Parameters<Storage['audit']['list']>[0]> = {}): Promise<AuditEvent[]> =>
      (await storage.audit.list({ limit: 1_000, ...query })).items;

    it('an event given to a write is stored with it, as given', async () => {
      const record = api();
      const e = event(5_000, [{ type: 'api', id: record.id }]);
      await storage.apis.insert(record, e);
      expect(await storage.apis.get(record.id)).toEqual(record);
      expect(await all()).toEqual([e]);
    });

    it('a write that changes nothing stores no event; one that fails stores none either', async () => {
      const record = api();
      await storage.apis.insert(record);
      expect(await storage.apis.markDeleted(record.id, 2_000, event(1, []))).toBe(true);
      expect(await storage.apis.markDeleted(record.id, 3_000, event(2, []))).toBe(false);
      expect(await storage.keys.delete('key_unknown', event(3, []))).toBe(false);
      const taken = identity();
      await storage.identities.insert(taken);
      await expect(storage.identities.insert({ ...identity(), externalId: taken.externalId }, event(4, []))).rejects.toThrow();
      expect(await storage.keys.adjustCredits('key_unknown', 5, event(5, []))).toBeNull();
      expect((await all()).map((e) => e.time)).toEqual([1]);
    });

    it('every kind of write carries its event: keys, credits, identities, roles, permissions, overrides, root keys, migrations', async () => {
      const k = key({ hasCredits: true });
      const p = permission('read');
      const r = role('admin');
      const i = identity();
      const rk = rootKey();
      let t = 10_000;
      const next = (): AuditEvent => event(t++, []);
      await storage.keys.insertAttaching([{ record: k, credits: { remaining: 10 }, attaching: { permissions: [], roles: [] }, event: next() }], 'refuse');
      await storage.keys.setCredits(k.id, { remaining: 3 }, next());
      await storage.keys.adjustCredits(k.id, 2, next());
      await storage.keys.patchCredits(k.id, { remaining: 7 }, next());
      await storage.permissions.insert(p, next());
      await storage.roles.insert(r, next());
      await storage.roles.setPermissions(r.id, [p.id], next());
      expect((await storage.keys.modifyAttaching(k.id, { permissions: [p], roles: [r] }, (c) => ({ ...c, permissions: ['read'], roles: ['admin'] }), next())).kind).toBe('changed');
      // Nothing to change still records the call, the same on every backend.
      expect((await storage.keys.modifyAttaching(k.id, { permissions: [], roles: [] }, () => null, next())).kind).toBe('changed');
      await storage.identities.insert(i, next());
      await storage.identities.update({ ...i, meta: { plan: 'pro' } }, next());
      await storage.rootKeys.put(rk, next());
      await storage.rootKeys.revoke(rk.id, 1, next());
      await storage.rootKeys.revoke(rk.id, 2, next());
      await storage.migrations.insert({ id: id('mig'), workspaceId: WORKSPACE_ID, algorithm: 'sha256', createdAt: 1 }, next());
      await storage.roles.delete(r.id, next());
      await storage.permissions.delete(p.id, next());
      await storage.identities.delete(i.id, next());
      await storage.keys.delete(k.id, next());
      await storage.rootKeys.remove(rk.id, next());
      const times = (await all()).map((e) => e.time);
      expect(times).toEqual(Array.from({ length: t - 10_000 }, (_, n) => t - 1 - n));
      expect(await storage.keys.get(k.id)).toBeNull();
    });

    it('an override event names the override the store chose: a new one, or the existing one it updates', async () => {
      const ns = await storage.namespaces.getOrCreate(WORKSPACE_ID, 'sms', () => ({ id: id('rlns'), workspaceId: WORKSPACE_ID, name: 'sms', createdAt: 1 }));
      const values = { workspaceId: WORKSPACE_ID, namespaceId: ns.id, identifier: 'user_1', limit: 5, duration: 60_000 };
      const withOverride = (time: number): AuditEvent => event(time, [{ type: 'namespace', id: ns.id }, { type: 'override', id: 'chosen by the store', name: 'user_1' }]);
      const first = await storage.overrides.set(values, 1, 'rlor_first', withOverride(100));
      await storage.overrides.set({ ...values, limit: 9 }, 2, 'rlor_second', withOverride(101));
      expect(await storage.overrides.delete(ns.id, 'user_1', 3, withOverride(102))).toBe(true);
      const events = await all();
      expect(events.map((e) => e.targets[1]!.id)).toEqual([first.id, first.id, first.id]);
      expect(first.id).toBe('rlor_first');
    });

    it('lists newest first across many records, in pages that continue at the cursor, each event once', async () => {
      const times = Array.from({ length: 25 }, (_, n) => 50_000 + n * 7);
      // Many records: on a Cluster their events sit in many slots.
      await Promise.all(times.map((t) => { const a = api(); return storage.apis.insert(a, event(t, [{ type: 'api', id: a.id }])); }));
      const seen: number[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < 20; pages++) {
        const page = await storage.audit.list({ limit: 4, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((e) => e.time));
        if (page.cursor === null) break;
        cursor = page.cursor;
      }
      expect(seen).toEqual([...times].reverse());
    });

    it('filters by time range (from inclusive, to exclusive), actor, target and procedure', async () => {
      const a = api();
      const b = api();
      await storage.apis.insert(a, event(1_000, [{ type: 'api', id: a.id }], 'apis.createApi', 'rk_alice'));
      await storage.apis.insert(b, event(2_000, [{ type: 'api', id: b.id }], 'apis.createApi', 'rk_bob'));
      await storage.apis.markDeleted(a.id, 3, event(3_000, [{ type: 'api', id: a.id }], 'apis.deleteApi', 'rk_bob'));
      const times = async (query: Partial<Parameters<Storage['audit']['list']>[0]>): Promise<number[]> => (await all(query)).map((e) => e.time);
      expect(await times({ fromMs: 2_000 })).toEqual([3_000, 2_000]);
      expect(await times({ toMs: 3_000 })).toEqual([2_000, 1_000]);
      expect(await times({ fromMs: 1_000, toMs: 2_000 })).toEqual([1_000]);
      expect(await times({ actor: 'rk_bob' })).toEqual([3_000, 2_000]);
      expect(await times({ targetId: a.id })).toEqual([3_000, 1_000]);
      expect(await times({ procedure: 'apis.createApi' })).toEqual([2_000, 1_000]);
      expect(await times({ actor: 'rk_bob', targetId: a.id, procedure: 'apis.deleteApi' })).toEqual([3_000]);
      expect(await times({ actor: 'rk_nobody' })).toEqual([]);
    });

    it('operator actors are found by their type', async () => {
      const a = api();
      const e = auditEvent({ actor: { type: 'cli' }, workspaceId: WORKSPACE_ID, procedure: 'cli:root-key create' }, { targets: [], summary: 'cli' }, 7_000);
      await storage.apis.insert(a, e);
      expect(await all({ actor: 'cli' })).toEqual([e]);
      expect(await all({ actor: 'bootstrap' })).toEqual([]);
    });

    it('prune removes the events before the time, and only those', async () => {
      for (const t of [1_000, 2_000, 3_000, 4_000]) await storage.apis.insert(api(), event(t, []));
      expect(await storage.audit.prune(3_000)).toBe(2);
      expect((await all()).map((e) => e.time)).toEqual([4_000, 3_000]);
      expect(await storage.audit.prune(3_000)).toBe(0);
    });
  });
}
