import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { PERMISSION_SLUG } from '../../schemas.js';
import { permissionResponse, resolveSlugs, type PermissionResponse } from '../shared.js';
import { PERMISSION_LIST } from '../../../shapes/responses.js';
import { permissionTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const notFound = (): ApiError => new ApiError('err:unkey:data:role_not_found', 'The requested role does not exist.');

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['roleId', 'permissions'],
  properties: {
    roleId: { type: 'string', minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9_-]+$' },
    permissions: { type: 'array', items: PERMISSION_SLUG },
  },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsSetRolePermissions = defineRoute<Input, PermissionResponse[]>({
  name: 'permissions.setRolePermissions',
  audited: true,
  // The role's permissions as set, by slug.
  responseSchema: PERMISSION_LIST,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['rbac.*.add_permission_to_role']);
    requireAny(principal, ['rbac.*.remove_permission_from_role']);
    const { roles } = services.storage;
    // Only the id is accepted; names are not resolved.
    const role = await roles.get(input.roleId);
    if (!role || role.workspaceId !== principal.workspaceId) throw notFound();
    const permissions = await resolveSlugs(services, principal, input.permissions, true);
    const event = ctx.audit({
      targets: [target('role', role.id, role.name), ...permissionTargets(permissions)], summary: `set the permissions of role '${role.name}'`, changes: changesOf(input, ['roleId']),
    });
    const updated = await roles.setPermissions(role.id, permissions.map((p) => p.id), event);
    if (!updated) throw notFound();
    return permissions.map(permissionResponse).sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  },
});
