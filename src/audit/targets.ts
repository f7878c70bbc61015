/** Targets of an event: the records a call changed or named, by type and id (names as shown). */
import type { PermissionRecord, RoleRecord } from '../storage/records.js';
import type { AuditEvent, AuditTarget, AuditTargetType } from './event.js';

export const target = (type: AuditTargetType, id: string, name?: string): AuditTarget => ({ type, id, ...(name !== undefined ? { name } : {}) });

export const permissionTargets = (permissions: readonly PermissionRecord[]): AuditTarget[] => permissions.map((p) => target('permission', p.id, p.slug));
export const roleTargets = (roles: readonly RoleRecord[]): AuditTarget[] => roles.map((r) => target('role', r.id, r.name));

/**
 * The event with its override target naming `overrideId`: the store decides which override a
 * set or delete changes (an existing one keeps its id), inside the write that carries the event.
 */
export function withOverrideId(event: AuditEvent | undefined, overrideId: string): AuditEvent | undefined {
  if (event === undefined) return undefined;
  return { ...event, targets: event.targets.map((t) => (t.type === 'override' ? { ...t, id: overrideId } : t)) };
}
