/**
 * What a root key may hand out or take away: only what it holds itself. A key that holds
 * `<type>.*.<action>` is allowed that action on every resource already, so it may also grant
 * `<type>.<id>.<action>`; anything else it lacks would be an escalation.
 */
import { ApiError } from '../../errors/api-error.js';
import type { Principal } from '../../auth/permissions.js';
import type { ShapeOf } from '../../shapes/shape-of.js';
import type { RootKeyRecord } from '../../storage/records.js';
import type { responseSchema as ROOT_KEY_LIST } from './listRootKeys/response.js';

export function holds(principal: Principal, permission: string): boolean {
  if (principal.permissions.has(permission)) return true;
  const [type, , action] = permission.split('.');
  return type !== undefined && action !== undefined && principal.permissions.has(`${type}.*.${action}`);
}

/** Throws 403 naming every permission of `wanted` the caller does not hold. */
export function requireHeld(principal: Principal, wanted: readonly string[], what: string): void {
  const missing = wanted.filter((p) => !holds(principal, p));
  if (missing.length === 0) return;
  throw new ApiError('err:keygate:authorization:forbidden',
    `A root key can only ${what} permissions it holds itself. Missing: ${missing.map((p) => `'${p}'`).join(', ')}.`);
}

/** The wire form of a root key, as rootKeys.listRootKeys lists it: never its hash. */
export type RootKeyResponse = ShapeOf<typeof ROOT_KEY_LIST>[number];

export function rootKeyResponse(record: RootKeyRecord): RootKeyResponse {
  return {
    id: record.id,
    ...(record.name === undefined ? {} : { name: record.name }),
    start: record.start,
    permissions: [...record.permissions].sort(),
    createdAt: record.createdAt,
    ...(record.revokedAt === undefined ? {} : { revokedAt: record.revokedAt }),
  };
}
