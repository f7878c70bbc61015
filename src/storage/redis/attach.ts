/**
 * KeyStore.modifyAttaching in Redis. A key and the permissions and roles it names sit in different
 * slots, so checking them cannot share the key's write. Instead a delete marks its record before it
 * strips any key (deleting.ts), and the attach reads the records again after its write: no mark
 * means the delete began after the write, so its strip will find the slug or role on the key; a
 * mark or no record means the strip may have passed the key already, so the attach takes them off
 * again itself.
 */
import { attachesNothing, withoutAttached } from '../attaching.js';
import type { KeyRecord } from '../records.js';
import type { AuditEvent } from '../../audit/event.js';
import type { AttachOutcome, Attaching } from '../types.js';
import { isLive } from './deleting.js';
import type { StorageKeys } from './keys.js';
import type { RecordIo } from './record-io.js';

type Modify = (id: string, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent) => Promise<KeyRecord | null>;

export async function modifyAttaching(
  modify: Modify, io: RecordIo, k: StorageKeys, id: string, attaching: Attaching, change: (current: KeyRecord) => KeyRecord | null,
  event?: AuditEvent,
): Promise<AttachOutcome> {
  // Marked already when the caller looked them up (a delete under way): nothing is written.
  const marked = { permissions: attaching.permissions.filter((p) => !isLive(p)), roles: attaching.roles.filter((r) => !isLive(r)) };
  if (!attachesNothing(marked)) return { kind: 'deleted', deleted: marked };
  // The event rides on the change; taking a deleted one off again afterwards is a follow-up.
  const key = await modify(id, change, event);
  if (!key) return { kind: 'unknownKey' };
  if (attachesNothing(attaching)) return { kind: 'changed', key };
  const [permissions, roles] = await Promise.all([
    io.getMany<object>(attaching.permissions.map((p) => k.permission(p.id))),
    io.getMany<object>(attaching.roles.map((r) => k.role(r.id))),
  ]);
  const deleted = {
    permissions: attaching.permissions.filter((_, i) => !isLive(permissions[i] ?? null)),
    roles: attaching.roles.filter((_, i) => !isLive(roles[i] ?? null)),
  };
  if (attachesNothing(deleted)) return { kind: 'changed', key };
  await modify(id, (current) => withoutAttached(current, deleted));
  return { kind: 'deleted', deleted };
}
