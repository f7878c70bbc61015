/**
 * What both backends share for KeyStore.modifyAttaching and insertAttaching: taking permissions
 * and roles off a key record, and turning settled inserts into outcomes.
 */
import type { KeyRecord, PermissionRecord, RoleRecord } from './records.js';
import { DuplicateError, type Attaching, type InsertOutcome } from './types.js';

// Slugs and role names are unique case-insensitively.
const folded = (value: string): string => value.toLowerCase();

export const attachesNothing = (a: Attaching): boolean => a.permissions.length === 0 && a.roles.length === 0;

/** The key without the slugs and role names of `gone` (case-insensitively); null when it names none. */
export function withoutAttached(key: KeyRecord, gone: Attaching): KeyRecord | null {
  const slugs = new Set(gone.permissions.map((p) => folded(p.slug)));
  const names = new Set(gone.roles.map((r) => folded(r.name)));
  const permissions = key.permissions.filter((p) => !slugs.has(folded(p)));
  const roles = key.roles.filter((r) => !names.has(folded(r)));
  if (permissions.length === key.permissions.length && roles.length === key.roles.length) return null;
  return { ...key, permissions, roles };
}

/** Those of `attaching` that `isGone` picks, in the order given. */
export function goneOf(attaching: Attaching, isGone: { permission(p: PermissionRecord): boolean; role(r: RoleRecord): boolean }): Attaching {
  return { permissions: attaching.permissions.filter((p) => isGone.permission(p)), roles: attaching.roles.filter((r) => isGone.role(r)) };
}

/** A duplicate is one key's outcome; any other failure is the whole call's, raised once all are settled. */
export function outcomesOf(settled: readonly PromiseSettledResult<InsertOutcome>[]): InsertOutcome[] {
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected' && !(s.reason instanceof DuplicateError));
  if (failure) throw failure.reason;
  return settled.map((s) => (s.status === 'fulfilled' ? s.value : { kind: 'duplicate', error: s.reason as DuplicateError }));
}
