/**
 * Root-key permissions: tuples `<ResourceType>.<ResourceID>.<Action>`. Matching is exact string
 * equality, as in Unkey: `*` is not a wildcard in a grant; handlers ask for the `*` tuple and the
 * concrete-id tuple as alternatives.
 */
import { ApiError } from '../errors/api-error.js';
import { ACTIONS } from './catalogue.js';

export { ACTIONS };

export type ResourceType = keyof typeof ACTIONS;

/** Every `<type>.*.<action>` tuple: what a ROOT_KEY bootstrap key is granted. */
export const ALL_PERMISSIONS: readonly string[] = Object.entries(ACTIONS).flatMap(([type, actions]) =>
  actions.map((action) => `${type}.*.${action}`));

const TUPLE = /^(api|ratelimit|rbac|identity|root_key|audit_log)\.([A-Za-z0-9_-]+|\*)\.([a-z_]+)$/;

/** Why a permission string cannot be granted, or null when it is well formed and known. */
export function permissionProblem(permission: string): string | null {
  const match = TUPLE.exec(permission);
  if (!match) return `'${permission}' is not of the form <api|ratelimit|rbac|identity|root_key|audit_log>.<id or *>.<action>`;
  const [, type, id, action] = match as unknown as [string, ResourceType, string, string];
  if (!(ACTIONS[type] as readonly string[]).includes(action)) {
    return `'${action}' is not an action of '${type}' (known: ${ACTIONS[type].join(', ')})`;
  }
  if (type === 'root_key' && id !== '*') return `root_key permissions apply to every root key: use 'root_key.*.${action}'`;
  if (type === 'audit_log' && id !== '*') return `audit_log permissions apply to the whole log: use 'audit_log.*.${action}'`;
  return null;
}

/** The authenticated caller. */
export interface Principal {
  readonly rootKeyId: string;
  /** The root key's name, for audit events (src/audit/). */
  readonly rootKeyName?: string | undefined;
  readonly workspaceId: string;
  readonly permissions: ReadonlySet<string>;
}

export function hasAny(principal: Principal, anyOf: readonly string[]): boolean {
  return anyOf.some((p) => principal.permissions.has(p));
}

/** Throws the 403 (forbidden) naming the missing tuple(s) unless one of `anyOf` is granted. */
export function requireAny(principal: Principal, anyOf: readonly string[]): void {
  if (hasAny(principal, anyOf)) return;
  const detail = anyOf.length === 1
    ? `Missing permission: '${anyOf[0]}'.`
    : `Missing one of these permissions: ${anyOf.map((p) => `'${p}'`).join(' or ')}.`;
  throw new ApiError('err:keygate:authorization:forbidden', detail);
}

/** True if any granted tuple allows `action` on `type` (for any id), used where ids are unknown yet. */
export function hasActionOnAny(principal: Principal, type: ResourceType, action: string): boolean {
  // Remembered per principal (immutable, and reused while its record is unchanged: root-key.ts),
  // so verifyKey does not scan every permission on every call. Looked up by type, then action:
  // both are literals whose hashes V8 keeps, where one key joined from them is a new string to
  // hash on every call.
  let byType = actionAnswers.get(principal);
  if (byType === undefined) actionAnswers.set(principal, byType = new Map());
  let byAction = byType.get(type);
  if (byAction === undefined) byType.set(type, byAction = new Map());
  let answer = byAction.get(action);
  if (answer === undefined) {
    answer = false;
    for (const p of principal.permissions) if (p.startsWith(`${type}.`) && p.endsWith(`.${action}`)) {
      answer = true;
      break;
    }
    byAction.set(action, answer);
  }
  return answer;
}

const actionAnswers = new WeakMap<Principal, Map<ResourceType, Map<string, boolean>>>();
