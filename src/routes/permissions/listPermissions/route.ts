import { requireAny } from '../../../auth/permissions.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import { toPage } from '../../pagination.js';
import { LIST_CURSOR, LIST_LIMIT, LIST_SEARCH, permissionResponse, type PermissionResponse } from '../shared.js';
import { PERMISSION } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: LIST_LIMIT, cursor: LIST_CURSOR, search: LIST_SEARCH },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsListPermissions = defineListRoute<Input, PermissionResponse>({
  name: 'permissions.listPermissions',
  // One permission of the page.
  responseSchema: PERMISSION,
  requestSchema,
  async handle({ input, principal, services }) {
    requireAny(principal, ['rbac.*.read_permission']);
    const records = await services.storage.permissions.list(principal.workspaceId, {
      limit: input.limit + 1,
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(input.search ? { search: input.search } : {}),
    });
    return toPage(records, input.limit, permissionResponse);
  },
});
