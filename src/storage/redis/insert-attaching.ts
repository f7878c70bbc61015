/**
 * KeyStore.insertAttaching in Redis, as attach.ts does modifyAttaching: a new key cannot be checked
 * against the permissions and roles it names in its own write, so their records are read again
 * after it. An insert lists the key under its API before it writes the record, so a delete that
 * marks its record after that re-read finds the key in its strip; a mark or no record means the
 * strip may have passed the key, so the key is changed again here: the deleted ones taken off
 * ('omit'), or the key removed ('refuse'). The records named by all the keys of one call are read
 * once, together. A crash before that change leaves the key as inserted.
 */
import { attachesNothing, goneOf, outcomesOf, withoutAttached } from '../attaching.js';
import type { CreditsRecord, KeyRecord, PermissionRecord, RoleRecord } from '../records.js';
import type { AuditEvent } from '../../audit/event.js';
import { withdrawn } from '../../audit/ids.js';
import type { Attaching, IfDeleted, InsertOutcome, KeyStore, NewKey } from '../types.js';
import { isLive } from './deleting.js';
import type { StorageKeys } from './keys.js';
import type { RecordIo } from './record-io.js';

/** The key store's own writes, which insertAttaching builds on (insert with the key's event). */
type InsertingStore = Pick<KeyStore, 'modify' | 'delete'> & {
  insert(record: KeyRecord, credits: CreditsRecord | null, event?: AuditEvent): Promise<void>;
};

interface Live { readonly permissions: ReadonlySet<string>; readonly roles: ReadonlySet<string> }

const marked = (attaching: Attaching): Attaching => goneOf(attaching, { permission: (p) => !isLive(p), role: (r) => !isLive(r) });

/** Ids of the records, each read once, that are there and not being deleted; those marked at lookup are not read. */
async function stillLive(io: RecordIo, k: StorageKeys, attaching: readonly Attaching[]): Promise<Live> {
  const permissionIds = [...new Set(attaching.flatMap((a) => a.permissions.filter((p) => isLive(p)).map((p) => p.id)))];
  const roleIds = [...new Set(attaching.flatMap((a) => a.roles.filter((r) => isLive(r)).map((r) => r.id)))];
  const [permissions, roles] = await Promise.all([
    io.getMany<PermissionRecord>(permissionIds.map((id) => k.permission(id))),
    io.getMany<RoleRecord>(roleIds.map((id) => k.role(id))),
  ]);
  return {
    permissions: new Set(permissionIds.filter((_, i) => isLive(permissions[i] ?? null))),
    roles: new Set(roleIds.filter((_, i) => isLive(roles[i] ?? null))),
  };
}

export async function insertAttaching(
  store: InsertingStore, io: RecordIo, k: StorageKeys, keys: readonly NewKey[], ifDeleted: IfDeleted,
): Promise<InsertOutcome[]> {
  // Marked already when the caller looked them up (a delete under way): never written.
  const inserts = keys.map(async ({ record, credits, attaching, event }): Promise<InsertOutcome> => {
    const early = marked(attaching);
    if (!attachesNothing(early) && ifDeleted === 'refuse') return { kind: 'deleted', deleted: early };
    await store.insert(withoutAttached(record, early) ?? record, credits, event);
    return { kind: 'inserted', omitted: early };
  });
  const settled = await Promise.allSettled(inserts);
  const inserted = (s: PromiseSettledResult<InsertOutcome>): boolean => s.status === 'fulfilled' && s.value.kind === 'inserted';
  // Nothing is read when the keys stored attach nothing.
  const live = await stillLive(io, k, keys.filter((_, i) => inserted(settled[i]!)).map((key) => key.attaching));

  const checked = await Promise.allSettled(settled.map(async (s, i): Promise<InsertOutcome> => {
    if (s.status === 'rejected') throw s.reason;
    if (s.value.kind !== 'inserted') return s.value;
    const { record, attaching, event } = keys[i]!;
    const deleted = goneOf(attaching, { permission: (p) => !live.permissions.has(p.id), role: (r) => !live.roles.has(r.id) });
    const late = goneOf(deleted, { permission: (p) => isLive(p), role: (r) => isLive(r) });
    if (attachesNothing(late)) return s.value;
    if (ifDeleted === 'refuse') {
      // The key was stored with its event: its removal is recorded too.
      await store.delete(record.id, event && withdrawn(event));
      return { kind: 'deleted', deleted };
    }
    await store.modify(record.id, (current) => withoutAttached(current, late));
    return { kind: 'inserted', omitted: deleted };
  }));
  return outcomesOf(checked);
}
