import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { DuplicateError } from '../../../storage/types.js';
import { newId } from '../../../util/ids.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { PERMISSION_SLUG } from '../../schemas.js';
import { DESCRIPTION, resolveSlugs, ROLE_NAME } from '../shared.js';
import { responseSchema } from './response.js';
import { permissionTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

const conflict = (name: string): ApiError =>
  new ApiError('err:unkey:data:role_already_exists', `A role with name '${name}' already exists in this workspace`);

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: ROLE_NAME, description: DESCRIPTION, permissions: { type: 'array', items: PERMISSION_SLUG } },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsCreateRole = defineRoute<Input, ShapeOf<typeof responseSchema>>({
  name: 'permissions.createRole',
  audited: true,
  responseSchema,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['rbac.*.create_role']);
    const slugs = input.permissions ?? [];
    if (slugs.length > 0) requireAny(principal, ['rbac.*.add_permission_to_role']);
    const { roles } = services.storage;
    // Before any permission is created, so a conflicting request leaves nothing behind.
    if (await roles.findByName(principal.workspaceId, input.name)) throw conflict(input.name);
    const permissions = await resolveSlugs(services, principal, slugs, true);
    const roleId = newId('role');
    try {
      await roles.insert({
        id: roleId,
        workspaceId: principal.workspaceId,
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        permissionIds: permissions.map((p) => p.id),
        createdAt: services.now(),
      }, ctx.audit({ targets: [target('role', roleId, input.name), ...permissionTargets(permissions)], summary: `created role '${input.name}'`, changes: changesOf(input) }));
    } catch (err) {
      if (err instanceof DuplicateError) throw conflict(input.name);
      throw err;
    }
    return { roleId };
  },
});
