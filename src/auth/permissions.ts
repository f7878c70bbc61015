/**
 * Root-key permissions: tuples `<ResourceType>.<ResourceID>.<Action>`. Matching is exact string
 * equality, as in Unkey: `*` is not a wildcard in a grant; handlers ask for the `*` tuple and the
 * concrete-id tuple as alternatives.
 */
import { ApiError } from '../errors/api-error.js';

export const ACTIONS = {
  api: ['read_api', 'create_api', 'delete_api', 'update_api', 'create_key', 'update_key', 'delete_key',
    'encrypt_key', 'decrypt_key', 'read_key', 'verify_key', 'read_analytics'],
  ratelimit: ['limit', 'create_namespace', 'read_namespace', 'update_namespace', 'delete_namespace',
    'set_override', 'read_override', 'delete_override', 'list_overrides'],
  rbac: ['create_permission', 'update_permission', 'delete_permission', 'read_permission', 'create_role',
    'update_role', 'delete_role', 'read_role', 'add_permission_to_key', 'remove_permission_from_key',
    'add_role_to_key', 'remove_role_from_key', 'add_permission_to_role', 'remove_permission_from_role'],
  identity: ['create_identity', 'read_identity', 'update_identity', 'delete_identity'],
} as const satisfies Record<string, readonly string[]>;

export type ResourceType = keyof typeof ACTIONS;

/** Every `<type>.*.<action>` tuple: what a ROOT_KEY bootstrap key is granted. */
export const ALL_PERMISSIONS: readonly string[] = Object.entries(ACTIONS).flatMap(([type, actions]) =>
  actions.map((action) => `${type}.*.${action}`));

const TUPLE = /^(api|ratelimit|rbac|identity)\.([A-Za-z0-9_-]+|\*)\.([a-z_]+)$/;

/** Why a permission string cannot be granted, or null when it is well formed and known. */
export function permissionProblem(permission: string): string | null {
  const match = TUPLE.exec(permission);
  if (!match) return `'${permission}' is not of the form <api|ratelimit|rbac|identity>.<id or *>.<action>`;
  const [, type, , action] = match as unknown as [string, ResourceType, string, string];
  if (!(ACTIONS[type] as readonly string[]).includes(action)) {
    return `'${action}' is not an action of '${type}' (known: ${ACTIONS[type].join(', ')})`;
  }
  return null;
}

/** The authenticated caller. */
export interface Principal {
  readonly rootKeyId: string;
  readonly workspaceId: string;
  readonly permissions: ReadonlySet<string>;
}

export function hasAny(principal: Principal, anyOf: readonly string[]): boolean {
  return anyOf.some((p) => principal.permissions.has(p));
}

/** Throws the spec's 403 naming the missing tuple(s) unless one of `anyOf` is granted. */
export function requireAny(principal: Principal, anyOf: readonly string[]): void {
  if (hasAny(principal, anyOf)) return;
  const detail = anyOf.length === 1
    ? `Missing permission: '${anyOf[0]}'.`
    : `Missing one of these permissions: ${anyOf.map((p) => `'${p}'`).join(' or ')}.`;
  throw new ApiError('err:keygate:authorization:forbidden', detail);
}

/** True if any granted tuple allows `action` on `type` (for any id), used where ids are unknown yet. */
export function hasActionOnAny(principal: Principal, type: ResourceType, action: string): boolean {
  for (const p of principal.permissions) if (p.startsWith(`${type}.`) && p.endsWith(`.${action}`)) return true;
  return false;
}
