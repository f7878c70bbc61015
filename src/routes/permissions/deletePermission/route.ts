import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import type { ShapeOf } from '../../../shapes/shape-of.js';
import { PERMISSION_SLUG } from '../../schemas.js';
import { EMPTY_DATA } from '../../../shapes/responses.js';
import { target } from '../../../audit/targets.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['permission'],
  properties: { permission: PERMISSION_SLUG },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsDeletePermission = defineRoute<Input, ShapeOf<typeof EMPTY_DATA>>({
  name: 'permissions.deletePermission',
  audited: true,
  responseSchema: EMPTY_DATA,
  requestSchema,
  async handle(ctx) {
    const { input, principal, services } = ctx;
    requireAny(principal, ['rbac.*.delete_permission']);
    const { permissions } = services.storage;
    const permission = await permissions.find(principal.workspaceId, input.permission);
    // Hard delete: the permission leaves every role and every key at once.
    if (!permission || !(await permissions.delete(permission.id, ctx.audit({
      targets: [target('permission', permission.id, permission.slug)], summary: `deleted permission '${permission.slug}'`,
    })))) {
      throw new ApiError('err:unkey:data:permission_not_found', 'The requested permission does not exist.');
    }
    return {};
  },
});
