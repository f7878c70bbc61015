import { requireAny } from '../../../auth/permissions.js';
import { ApiError } from '../../../errors/api-error.js';
import { defineRoute, type RequestOf } from '../../define.js';
import { roleResponse, ROLE_NAME, type RoleResponse } from '../shared.js';
import { ROLE } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role'],
  properties: { role: ROLE_NAME },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsGetRole = defineRoute<Input, RoleResponse>({
  name: 'permissions.getRole',
  responseSchema: ROLE,
  requestSchema,
  async handle({ input, principal, services }) {
    requireAny(principal, ['rbac.*.read_role']);
    const role = await services.storage.roles.find(principal.workspaceId, input.role);
    if (!role) throw new ApiError('err:unkey:data:role_not_found', 'The requested role does not exist.');
    return roleResponse(services, role);
  },
});
