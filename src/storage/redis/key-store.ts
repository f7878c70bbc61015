/**
 * Keys in Redis. One hash per key (`key:{<keyId>}:rec`) holds the record (r, v) and its credits
 * counter (cr, ci, ca, cd, cl): record and counter share a slot, so insert, delete and every
 * credits change are single atomic steps, and `hasCredits` is read from the counter's presence
 * (never stored), so it cannot drift from it.
 *
 * Crash ordering (the rules of open.ts; slots: hash index, API listing, workspace set, record):
 * - insert: claim the hash index → add to the API's listing and the workspace's API set →
 *   write record + counter (the commit point). A crash before the commit leaves an index entry
 *   and a listing entry that name a missing record: readers treat both as absent, and the index
 *   entry is taken over once its lease ran out (a retry with the same id takes it at once).
 * - modify with a new hash: claim the new hash → compare-and-set the record (commit) → release
 *   the old hash. Leftovers name a record with another hash: absent to readers.
 * - delete: delete record + counter (commit) → remove the listing entry → release the hash.
 * - modifyAttaching (attach.ts): modify → read the attached permissions and roles again → take
 *   off those a delete marked meanwhile. A crash between the last two leaves them on the key.
 * - insertAttaching (insert-attaching.ts): insert every key → read the records they name again,
 *   once → take off those a delete marked meanwhile, or delete the key. A crash between the last
 *   two leaves them on the key.
 *
 * Durability: every write of a key record (not a credits spend, which verification makes) goes
 * through `writes` and ends with `writes.afterWrite`, which waits for the masters' replicas when
 * that is configured (src/redis/replica-wait.ts). Reads use the shared client.
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { CreditsRecord, CreditsRefill, KeyRecord } from '../records.js';
import {
  DuplicateError, type AttachOutcome, type Attaching, type IfDeleted, type InsertOutcome, type KeyStore, type ListOptions, type NewKey,
} from '../types.js';
import { modifyAttaching } from './attach.js';
import { insertAttaching } from './insert-attaching.js';
import { calendarArgs, creditFields, parseReply, patchArgs, setArgs } from './credits.js';
import type { StorageKeys } from './keys.js';
import { listIds } from './listing.js';
import { backoff, MAX_ATTEMPTS, type RecordIo, type Stored } from './record-io.js';
import { scripts } from './scripts.js';
import { auditedScripts } from './audited-scripts.js';
import { isFresh, type UniqueIndex } from './unique-index.js';

type StoredKey = Omit<KeyRecord, 'hasCredits'>;

const withoutHasCredits = ({ hasCredits: _derived, ...rest }: KeyRecord): StoredKey => rest;

/**
 * Where key-record writes go, and what follows each one. With replica waits, a connection of its
 * own (WAIT blocks the connection it is sent on); otherwise the shared client and no wait.
 */
export interface KeyWrites {
  readonly client: RedisClient;
  readonly io: RecordIo;
  readonly index: UniqueIndex;
  /** Resolves once the writes to these keys are as durable as configured; else rejects (503). */
  afterWrite(keys: readonly string[]): Promise<void>;
}

/** Keys rewritten at once by rewriteWorkspace: a page of the API's listing. */
const REWRITE_PAGE = 200;

export class RedisKeyStore implements KeyStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
    private readonly now: () => number,
    private readonly writes: KeyWrites = { client, io, index, afterWrite: async () => {} },
  ) {}

  private async read(id: string): Promise<Stored<KeyRecord> | null> {
    const stored = await this.io.read<StoredKey>(this.k.key(id), ['cr']);
    if (stored === null) return null;
    // Set on the freshly decoded record, not spread into a copy: V8 gives every spread copy of a
    // decoded record a hidden class of its own, and verifyKey's reads of hot keys' records would
    // then miss its inline caches on every verification.
    const record: StoredKey & { hasCredits?: boolean } = stored.record;
    record.hasCredits = stored.extra[0] !== null;
    return stored as Stored<KeyRecord>;
  }

  /** Whether `holder`'s record really has this hash (else its index entry is a leftover). */
  private holds(hash: string): (holder: string) => Promise<boolean> {
    return async (holder) => (await this.read(holder))?.record.hash === hash;
  }

  async insert(record: KeyRecord, credits: CreditsRecord | null, event?: AuditEvent): Promise<void> {
    const hashKey = this.k.keyByHash(record.hash);
    for (;;) {
      const claim = await this.writes.index.claim(hashKey, record.id, this.holds(record.hash));
      if (claim.kind !== 'claimed') throw new DuplicateError('hash');
      const listings = [this.k.keysOfApi(record.apiId), this.k.apisWithKeys(record.workspaceId)] as const;
      await Promise.all([
        this.writes.client.zadd(listings[0], 0, record.id),
        this.writes.client.sadd(listings[1], record.apiId),
      ]);
      if (!isFresh(claim)) continue;
      if (await this.writes.io.write(this.k.key(record.id), 0, withoutHasCredits(record), credits ? creditFields(credits) : [], event)) {
        // The hash index and the listing too: a failover that lost them would hide the key.
        await this.writes.afterWrite([this.k.key(record.id), hashKey, ...listings]);
        return;
      }
      // The id is taken. The same insert, retried after it succeeded, finds its own hash there.
      const existing = await this.read(record.id);
      if (existing?.record.hash === record.hash) throw new DuplicateError('hash');
      await this.writes.index.release(hashKey, record.id);
      throw new DuplicateError('id');
    }
  }

  async insertAttaching(keys: readonly NewKey[], ifDeleted: IfDeleted): Promise<InsertOutcome[]> {
    return insertAttaching(this, this.io, this.k, keys, ifDeleted);
  }

  async findByHash(hash: string): Promise<KeyRecord | null> {
    const holder = await this.index.holder(this.k.keyByHash(hash));
    if (holder === null) return null;
    const record = (await this.read(holder))?.record;
    return record?.hash === hash ? record : null;
  }

  async get(id: string): Promise<KeyRecord | null> {
    return (await this.read(id))?.record ?? null;
  }

  private async credits(keyId: string, op: 'get' | 'spend', args: readonly (string | number)[] = []) {
    const script = op === 'get' ? scripts.creditsRead : scripts.creditsChange;
    const reply = await script.run(this.client, [this.k.key(keyId)], [op, ...calendarArgs(this.now()), ...args]);
    return parseReply(reply);
  }

  /** A credits change asked for through the API (not a spend): written and waited for as a record write. */
  private async changeCredits(keyId: string, op: 'set' | 'adjust' | 'patch', args: readonly (string | number)[], event?: AuditEvent) {
    const key = this.k.key(keyId);
    const argv = [op, ...calendarArgs(this.now()), ...args];
    const prepared = event && await this.writes.io.requireAudit().prepare(key, event);
    const reply = parseReply(prepared
      ? await auditedScripts.creditsChange.run(this.writes.client, [key, prepared.eventsKey], [...argv, prepared.id, prepared.bytes])
      : await scripts.creditsChange.run(this.writes.client, [key], argv));
    if (reply.status !== 'unknown') await this.writes.afterWrite([key]);
    return reply;
  }

  async getCredits(keyId: string): Promise<CreditsRecord | null> {
    return (await this.credits(keyId, 'get')).credits;
  }

  async spendCredits(keyId: string, cost: number): Promise<{ passed: boolean; remaining: number | null }> {
    const { status, credits } = await this.credits(keyId, 'spend', [cost]);
    return { passed: status !== 'refused', remaining: credits?.remaining ?? null };
  }

  async update(record: KeyRecord): Promise<void> {
    await this.modify(record.id, () => record);
  }

  async modify(id: string, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent): Promise<KeyRecord | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read(id);
      if (!current) return null;
      const next = change(current.record);
      if (!next) {
        // Nothing to change: the call's event is stored on its own, as LMDB stores it.
        if (event) await this.writes.io.requireAudit().appendAlone(this.k.key(id), event);
        return current.record;
      }
      // hasCredits belongs to the counter; a record change never changes it.
      const stored: KeyRecord = { ...next, id, hasCredits: current.record.hasCredits };
      const moved = stored.hash !== current.record.hash;
      if (moved) {
        const claim = await this.writes.index.claim(this.k.keyByHash(stored.hash), id, this.holds(stored.hash));
        if (claim.kind !== 'claimed') throw new DuplicateError('hash');
        if (!isFresh(claim)) continue;
      }
      // A lost compare-and-set leaves a claim of the new hash behind: ours, and a leftover
      // (absent to readers) if the retried change ends with another hash.
      if (!(await this.writes.io.write(this.k.key(id), current.version, withoutHasCredits(stored), [], event))) {
        await backoff(attempt);
        continue;
      }
      if (moved) await this.writes.index.release(this.k.keyByHash(current.record.hash), id);
      await this.writes.afterWrite(moved ? [this.k.key(id), this.k.keyByHash(stored.hash)] : [this.k.key(id)]);
      return stored;
    }
    throw new Error(`too many concurrent changes of key ${id}`);
  }

  async modifyAttaching(id: string, attaching: Attaching, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent): Promise<AttachOutcome> {
    return modifyAttaching((keyId, c, e) => this.modify(keyId, c, e), this.io, this.k, id, attaching, change, event);
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.read(id);
      if (!current) return false;
      if (!(await this.writes.io.remove(this.k.key(id), current.version, event))) {
        await backoff(attempt);
        continue;
      }
      // A failover that lost the delete would bring a deleted key back: the record is waited for.
      await this.writes.client.zrem(this.k.keysOfApi(current.record.apiId), id);
      await this.writes.index.release(this.k.keyByHash(current.record.hash), id);
      await this.writes.afterWrite([this.k.key(id)]);
      return true;
    }
    throw new Error(`too many concurrent changes of key ${id}`);
  }

  async listByApi(apiId: string, options: ListOptions & { identityId?: string }): Promise<KeyRecord[]> {
    return listIds(this.client, this.k.keysOfApi(apiId), options,
      (ids) => Promise.all(ids.map((id) => this.get(id))),
      (key) => key.apiId === apiId && (options.identityId === undefined || key.identityId === options.identityId));
  }

  async setCredits(keyId: string, credits: CreditsRecord | null, event?: AuditEvent): Promise<boolean> {
    return (await this.changeCredits(keyId, 'set', setArgs(credits), event)).status !== 'unknown';
  }

  async adjustCredits(keyId: string, delta: number, event?: AuditEvent): Promise<CreditsRecord | null> {
    return (await this.changeCredits(keyId, 'adjust', [delta], event)).credits;
  }

  async patchCredits(keyId: string, patch: { remaining?: number; refill?: CreditsRefill | null }, event?: AuditEvent): Promise<CreditsRecord | null> {
    return (await this.changeCredits(keyId, 'patch', patchArgs(patch), event)).credits;
  }

  /**
   * Applies `change` (through modify) to every key of the workspace it returns a new record for:
   * how PermissionStore.delete and RoleStore.delete strip a slug or role name. Walks the
   * workspace's API set and each API's listing a page at a time: O(keys of the workspace), as
   * LMDB's scan, with no per-key index to keep in step on every key write.
   */
  async rewriteWorkspace(workspaceId: string, change: (key: KeyRecord) => KeyRecord | null): Promise<void> {
    for (const apiId of await this.client.smembers(this.k.apisWithKeys(workspaceId))) {
      let min = '-';
      for (;;) {
        const ids = await this.client.zrangebylex(this.k.keysOfApi(apiId), min, '+', 'LIMIT', 0, REWRITE_PAGE);
        const keys = await Promise.all(ids.map((id) => this.get(id)));
        await Promise.all(keys
          .filter((key): key is KeyRecord => key !== null && key.workspaceId === workspaceId && change(key) !== null)
          .map((key) => this.modify(key.id, (current) => (current.workspaceId === workspaceId ? change(current) : null))));
        if (ids.length < REWRITE_PAGE) break;
        min = `(${ids[ids.length - 1]!}`;
      }
    }
  }
}
