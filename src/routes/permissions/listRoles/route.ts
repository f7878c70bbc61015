import { requireAny } from '../../../auth/permissions.js';
import { defineListRoute, type RequestOf } from '../../define.js';
import { toPage } from '../../pagination.js';
import { LIST_CURSOR, LIST_LIMIT, LIST_SEARCH, roleResponse, type RoleResponse } from '../shared.js';
import { ROLE } from '../../../shapes/responses.js';

const requestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: LIST_LIMIT, cursor: LIST_CURSOR, search: LIST_SEARCH },
} as const;
type Input = RequestOf<typeof requestSchema>;

export const permissionsListRoles = defineListRoute<Input, RoleResponse>({
  name: 'permissions.listRoles',
  // One role of the page.
  responseSchema: ROLE,
  requestSchema,
  async handle({ input, principal, services }) {
    requireAny(principal, ['rbac.*.read_role']);
    const records = await services.storage.roles.list(principal.workspaceId, {
      limit: input.limit + 1,
      ...(input.cursor ? { cursor: input.cursor } : {}),
      ...(input.search ? { search: input.search } : {}),
    });
    const page = toPage(records, input.limit, (role) => role);
    return { data: await Promise.all(page.data.map((role) => roleResponse(services, role))), pagination: page.pagination };
  },
});
