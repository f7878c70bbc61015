/**
 * What the six key RBAC procedures share (keys.add/remove/setPermissions, keys.add/remove/setRoles):
 * request schemas, the root-key check, resolution of slugs and role names, and the atomic change of
 * the key. Every lookup, check and permission creation happens before the key is changed, so a
 * refused request writes nothing to the key. A permission or role deleted between its lookup and
 * the change is not left on the key, and the request answers the 404 of a missing one
 * (KeyStore.modifyAttaching; in the distributed mode the rest of the change may stay). createKey,
 * updateKey and rerollKey use the lookups and that 404 too.
 */
import { hasAny, requireAny, type Principal } from '../../auth/permissions.js';
import { ApiError } from '../../errors/api-error.js';
import type { Services } from '../../wiring/services.js';
import type { KeyRecord, PermissionRecord, RoleRecord } from '../../storage/records.js';
import type { Attaching } from '../../storage/types.js';
import type { RequestOf } from '../define.js';
import { ROLE_NAME, resolveSlugs } from '../permissions/shared.js';
import { PERMISSION_SLUG } from '../schemas.js';
import { findLiveKey, KEY_ID, KEY_NOT_FOUND } from './live-key.js';
import type { AuditEvent } from '../../audit/event.js';

/** add/remove need at least one slug; set accepts `[]` (removes every direct permission). */
export function permissionsSchema(minItems: 0 | 1) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['keyId', 'permissions'],
    properties: { keyId: KEY_ID, permissions: { type: 'array', minItems, maxItems: 1000, items: PERMISSION_SLUG } },
  } as const;
}
export type PermissionsInput = RequestOf<ReturnType<typeof permissionsSchema>>;

/** add/remove need at least one name; set accepts `[]` (removes every role). */
export function rolesSchema(minItems: 0 | 1) {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['keyId', 'roles'],
    properties: { keyId: KEY_ID, roles: { type: 'array', minItems, maxItems: 100, items: ROLE_NAME } },
  } as const;
}
export type RolesInput = RequestOf<ReturnType<typeof rolesSchema>>;

const folded = (value: string): string => value.toLowerCase();

/**
 * The live key, then the root-key check: update_key on its API (looked up first because the tuple
 * names the API: 404 before 403), and `rbac.*.<action>` for each action given. Every unmet
 * requirement is named in one 403, so the caller learns everything that is missing at once.
 */
export async function authorizedKey(services: Services, principal: Principal, keyId: string, rbacActions: readonly string[]): Promise<KeyRecord> {
  const key = await findLiveKey(services, principal, keyId);
  const groups = [['api.*.update_key', `api.${key.apiId}.update_key`], ...rbacActions.map((a) => [`rbac.*.${a}`])];
  const details: string[] = [];
  for (const group of groups.filter((g) => !hasAny(principal, g))) {
    try {
      requireAny(principal, group);
    } catch (err) {
      // requireAny owns the wording of a missing group; the details are joined into one 403.
      if (!(err instanceof ApiError)) throw err;
      details.push(err.detail);
    }
  }
  if (details.length > 0) throw new ApiError('err:keygate:authorization:forbidden', details.join(' '));
  return key;
}

/**
 * The permissions with these slugs (case-insensitive duplicates collapse): existing ones first, in
 * request order, then those created (name = slug). Creating needs `rbac.*.create_permission`; the
 * 403 comes before anything is created.
 */
export async function resolvePermissions(services: Services, principal: Principal, slugs: readonly string[]): Promise<PermissionRecord[]> {
  const out: PermissionRecord[] = [];
  const ids = new Set<string>();
  const missing: string[] = [];
  for (const slug of slugs) {
    const found = await services.storage.permissions.findBySlug(principal.workspaceId, slug);
    if (!found) missing.push(slug);
    else if (!ids.has(found.id)) { ids.add(found.id); out.push(found); }
  }
  // A slug created concurrently since the lookup comes back as the existing record: no duplicate.
  for (const p of await resolveSlugs(services, principal, missing, true)) {
    if (!ids.has(p.id)) { ids.add(p.id); out.push(p); }
  }
  return out;
}

const permissionNotFound = (slug: string): ApiError => new ApiError('err:unkey:data:permission_not_found', `Permission '${slug}' was not found.`);
const roleNotFound = (name: string): ApiError => new ApiError('err:unkey:data:role_not_found', `Role '${name}' was not found.`);

/** The 404 for a role or permission deleted while it was being attached: as if it had not been found. */
export function deletedMeanwhile(deleted: Attaching): ApiError {
  // Roles first: keys.updateKey looks its roles up before its permissions.
  const role = deleted.roles[0];
  return role ? roleNotFound(role.name) : permissionNotFound(deleted.permissions[0]!.slug);
}

/** For changes that attach nothing (the remove procedures). */
export const NOTHING_ATTACHED: Attaching = { permissions: [], roles: [] };

/** The permissions with these slugs, each of which must exist (404 naming the first unknown one). */
export async function existingPermissions(services: Services, principal: Principal, slugs: readonly string[]): Promise<PermissionRecord[]> {
  const out: PermissionRecord[] = [];
  for (const slug of slugs) {
    const found = await services.storage.permissions.findBySlug(principal.workspaceId, slug);
    if (!found) throw permissionNotFound(slug);
    if (!out.some((p) => p.id === found.id)) out.push(found);
  }
  return out;
}

/** The roles with these names (by name only, case-insensitively), each of which must exist (404). */
export async function existingRoles(services: Services, principal: Principal, names: readonly string[]): Promise<RoleRecord[]> {
  const out: RoleRecord[] = [];
  for (const name of names) {
    const found = await services.storage.roles.findByName(principal.workspaceId, name);
    if (!found) throw roleNotFound(name);
    if (!out.some((r) => r.id === found.id)) out.push(found);
  }
  return out;
}

/** Records of a key's direct slugs; a permission deleted meanwhile is skipped. */
export async function permissionsOfKey(services: Services, workspaceId: string, slugs: readonly string[]): Promise<PermissionRecord[]> {
  const found = await Promise.all(slugs.map((s) => services.storage.permissions.findBySlug(workspaceId, s)));
  return found.filter((p): p is PermissionRecord => p !== null);
}

/** Records of a key's role names; a role deleted meanwhile is skipped. */
export async function rolesOfKey(services: Services, workspaceId: string, names: readonly string[]): Promise<RoleRecord[]> {
  const found = await Promise.all(names.map((n) => services.storage.roles.findByName(workspaceId, n)));
  return found.filter((r): r is RoleRecord => r !== null);
}

/** `values` without those in `drop`, compared case-insensitively (slugs and role names are). */
export function without(values: readonly string[], drop: readonly string[]): string[] {
  const gone = new Set(drop.map(folded));
  return values.filter((v) => !gone.has(folded(v)));
}

/** Whether `values` holds `value`, compared case-insensitively. */
export function holds(values: readonly string[], value: string): boolean {
  return values.some((v) => folded(v) === folded(value));
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

type Lists = Pick<KeyRecord, 'permissions' | 'roles'>;

/**
 * Changes the key's permission or role list in one atomic read-modify-write, so concurrent changes
 * of the same key are never lost. `next` gets the stored lists (it may run more than once, so it
 * must be pure) and returns the list to store; an unchanged list writes nothing, and `updatedAt`
 * moves only when something changed. `attaching`: the records the new list names, as looked up;
 * one deleted meanwhile is the 404 of a missing one. Resolves the lists `next` was last given (the
 * state the change applied to). A key deleted meanwhile is the usual 404. `event` is stored with
 * the change, or alone when the list was unchanged (the call is recorded either way).
 */
export async function changeKeyList(
  services: Services, keyId: string, field: keyof Lists, attaching: Attaching, event: AuditEvent, next: (current: Lists) => readonly string[],
): Promise<Lists> {
  let seen: Lists | undefined;
  const outcome = await services.storage.keys.modifyAttaching(keyId, attaching, (current) => {
    seen = { permissions: current.permissions, roles: current.roles };
    const list = next(seen);
    if (sameList(list, current[field])) return null;
    return { ...current, [field]: [...list], updatedAt: services.now() };
  }, event);
  if (outcome.kind === 'deleted') throw deletedMeanwhile(outcome.deleted);
  if (outcome.kind === 'unknownKey' || !seen) throw new ApiError('err:unkey:data:key_not_found', KEY_NOT_FOUND);
  return seen;
}

/** Code-point order by one string field, as the other RBAC answers sort. */
export function byField<T>(field: (t: T) => string): (a: T, b: T) => number {
  return (a, b) => (field(a) < field(b) ? -1 : field(a) > field(b) ? 1 : 0);
}
