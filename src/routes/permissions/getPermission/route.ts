import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { PERMISSION_SLUG } from '../../schemas.js';
import { permissionResponse, type PermissionResponse } from '../shared.js';
import { PERMISSION } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['permission'],
  properties: { permission: PERMISSION_SLUG },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsGetPermission = defineRoute<Input, PermissionResponse>({
  name: 'permissions.getPermission',
  responseSchema: PERMISSION,
  requestSchema,
  async handle({ input, principal, services }) {
    // Checked before the lookup, so a 403 says nothing about whether the permission exists.
    requireAny(principal, ['rbac.*.read_permission']);
    const permission = await services.storage.permissions.find(principal.workspaceId, input.permission);
    if (!permission) throw new ApiError('err:unkey:data:permission_not_found', 'The requested permission does not exist.');
    return permissionResponse(permission);
  },
});
