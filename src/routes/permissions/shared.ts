/**
 * Response shapes (Unkey's Permission and Role) and the slug resolution shared by the
 * permissions.* procedures.
 */
import { requireAny, type Principal } from '../../auth/permissions.js';
import type { PERMISSION, ROLE } from '../../shapes/responses.js';
import type { ShapeOf } from '../../shapes/shape-of.js';
import type { PermissionRecord, RoleRecord } from '../../storage/records.js';
import type { Services } from '../../wiring/services.js';
import { newId } from '../../util/ids.js';

export type PermissionResponse = ShapeOf<typeof PERMISSION>;
export type RoleResponse = ShapeOf<typeof ROLE>;

export function permissionResponse(p: PermissionRecord): PermissionResponse {
  const out: PermissionResponse = { id: p.id, name: p.name, slug: p.slug };
  if (p.description) out.description = p.description;
  return out;
}

export async function roleResponse(services: Services, role: RoleRecord): Promise<RoleResponse> {
  const out: RoleResponse = { id: role.id, name: role.name };
  if (role.description) out.description = role.description;
  const permissions = await services.storage.roles.permissionsOf(role);
  if (permissions.length > 0) out.permissions = permissions.map(permissionResponse);
  return out;
}

export const ROLE_NAME = { type: 'string', minLength: 1, maxLength: 128 } as const;
export const DESCRIPTION = { type: 'string', maxLength: 512 } as const;
export { LIST_CURSOR, LIST_LIMIT } from '../pagination.js';
export const LIST_SEARCH = { type: 'string', maxLength: 256 } as const;

/**
 * The permission records for these slugs (case-insensitive duplicates ignored). Slugs with no
 * permission yet are created (name = slug), which needs `rbac.*.create_permission` unless the
 * caller already authorized creation (`checkCreate: false`, keys.createKey).
 */
export async function resolveSlugs(services: Services, principal: Principal, slugs: readonly string[], checkCreate: boolean): Promise<PermissionRecord[]> {
  if (slugs.length === 0) return [];
  const { permissions } = services.storage;
  if (checkCreate) {
    for (const slug of slugs) {
      if (!(await permissions.findBySlug(principal.workspaceId, slug))) {
        requireAny(principal, ['rbac.*.create_permission']);
        break;
      }
    }
  }
  const now = services.now();
  return permissions.getOrCreateMany(principal.workspaceId, slugs, (slug) => ({
    id: newId('perm'), workspaceId: principal.workspaceId, name: slug, slug, createdAt: now,
  }));
}
