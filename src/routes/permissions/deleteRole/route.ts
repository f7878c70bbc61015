import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { ROLE_NAME } from '../shared.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role'],
  properties: { role: ROLE_NAME },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsDeleteRole = defineRoute<Input, ShapeOf<typeof EMPTY_DATA>>({
  name: 'permissions.deleteRole',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['rbac.*.delete_role']);
    const { roles } = services.storage;
    const role = await roles.find(principal.workspaceId, input.role);
    // Hard delete: keys lose the role at once; its permissions stay.
    if (!role || !(await roles.delete(role.id, ctx.audit({ targets: [target('role', role.id, role.name)], summary: `deleted role '${role.name}'` })))) {
      throw new ApiError('err:unkey:data:role_not_found', 'The requested role does not exist.');
    }
    return {};
  },
});
