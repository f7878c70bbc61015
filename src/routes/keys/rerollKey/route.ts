import { requireAny } from '../../../auth/permissions.js';
import { generateKey } from '../../../keys/format.js';
import type { CreditsRecord, KeyRecord } from '../../../storage/records.js';
import { DuplicateError } from '../../../storage/types.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { TIMESTAMP_MS } from '../../schemas.js';
import { findLiveKey, KEY_ID } from '../live-key.js';
import { permissionsOfKey, rolesOfKey } from '../rbac.js';
import { NEW_KEY } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

/** Collisions of 16 random bytes do not happen; the retry only guards the unique index. */
const MAX_ATTEMPTS = 3;
const MINUTE_MS = 60_000;
/** Unkey uses the keyspace's default length, and keygate keyspaces have none: 16 bytes. */
const BYTE_LENGTH = 16;

/** Unkey keeps the text before the first `_` of `start`, so `my_app_…` keys reroll as `my_…`. */
function prefixOf(start: string): string | undefined {
  const cut = start.indexOf('_');
  return cut > 0 ? start.slice(0, cut) : undefined;
}

/** When the old key stops verifying: `expiration` ms from now, rounded up to a whole minute. */
function oldKeyExpiry(now: number, expiration: number): number {
  // Verification expires a key only strictly after `expires` (Unkey's rule); one millisecond back
  // makes "expire immediately" hold even for a verification within the same millisecond.
  if (expiration === 0) return now - 1;
  return Math.ceil((now + expiration) / MINUTE_MS) * MINUTE_MS;
}

const requestSchema = {
  type: 'object',
  required: ['keyId', 'expiration'],
  properties: { keyId: KEY_ID, expiration: TIMESTAMP_MS },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const keysRerollKey = defineRoute<Input, ShapeOf<typeof NEW_KEY>>({
  name: 'keys.rerollKey',
  audited: true,
  // The new key; the old one keeps working until its new expiry.
  responseSchema: NEW_KEY,
  // Unkey tolerates unknown top-level properties on this procedure.
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const { storage } = services;
    // Looked up first: the acceptable tuples name the key's API (Unkey's order: 404 before 403).
    const old = await findLiveKey(services, principal, input.keyId, 'The specified key was not found.');
    requireAny(principal, ['api.*.create_key', `api.${old.apiId}.create_key`]);
    const current = old.hasCredits ? await storage.keys.getCredits(old.id) : null;
    // The balance and the refill settings carry over; the refill history does not.
    const credits: CreditsRecord | null = current ? { remaining: current.remaining, ...(current.refill ? { refill: current.refill } : {}) } : null;
    const now = services.now();
    // The old key's permissions and roles as they stand: one deleted meanwhile is not copied, and
    // one deleted before the new key is written is left off it, while the reroll goes on ('omit').
    const [permissions, roles] = await Promise.all([
      permissionsOfKey(services, old.workspaceId, old.permissions),
      rolesOfKey(services, old.workspaceId, old.roles),
    ]);

    let created: { keyId: string; key: string } | undefined;
    for (let attempt = 1; !created; attempt++) {
      const generated = generateKey(prefixOf(old.start), BYTE_LENGTH);
      // The new key is the old one under a new secret: same settings, and the old key's expiry.
      const record: KeyRecord = {
        id: newId('key'),
        workspaceId: old.workspaceId,
        apiId: old.apiId,
        keyspaceId: old.keyspaceId,
        hash: generated.hash,
        start: generated.start,
        ...(old.name !== undefined ? { name: old.name } : {}),
        ...(old.meta !== undefined ? { meta: old.meta } : {}),
        ...(old.identityId !== undefined ? { identityId: old.identityId } : {}),
        ...(old.expires !== undefined ? { expires: old.expires } : {}),
        enabled: old.enabled,
        hasCredits: credits !== null,
        // New ids, so the new key's limits count apart from the old key's.
        ratelimits: old.ratelimits.map((r) => ({ ...r, id: newId('rl') })),
        permissions: permissions.map((p) => p.slug),
        roles: roles.map((r) => r.name),
        createdAt: now,
      };
      // The new key carries the event; the old key's new expiry after it is a follow-up (audit/event.ts).
      const event = ctx.audit({
        targets: [target('key', record.id, record.name), target('key', old.id, old.name), target('api', old.apiId)],
        summary: `rerolled key ${old.id}`, changes: changesOf(input, ['keyId']),
      });
      const outcome = (await storage.keys.insertAttaching([{ record, credits, attaching: { permissions, roles }, event }], 'omit'))[0]!;
      if (outcome.kind === 'inserted') created = { keyId: record.id, key: generated.plaintext };
      // 'omit' keeps every key it can store, so anything else is a taken hash: tried again with another.
      else if (attempt >= MAX_ATTEMPTS) throw new DuplicateError('hash');
    }

    // Re-read, so a change made to the old key meanwhile is not overwritten; it is not deleted:
    // it keeps working until its new expiry, which gives clients time to switch.
    const latest = await storage.keys.get(old.id);
    if (latest) await storage.keys.update({ ...latest, expires: oldKeyExpiry(now, input.expiration), updatedAt: now });
    return created;
  },
});
