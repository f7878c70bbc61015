import { defineRoute } from '../../define.js';
import { roleResponse, type RoleResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, existingRoles, NOTHING_ATTACHED, rolesOfKey, rolesSchema, without, type RolesInput } from '../rbac.js';
import { responseSchema } from './response.js';

export const keysRemoveRoles = defineRoute<RolesInput, RoleResponse[]>({
  name: 'keys.removeRoles',
  responseSchema,
  requestSchema: rolesSchema(1),
  async handle({ input, principal, services }) {
    // Unkey asks only for update_key here (no rbac action), unlike addRoles.
    const key = await authorizedKey(services, principal, input.keyId, []);
    // Every role must exist (404 otherwise, nothing removed); roles not on the key are ignored.
    const names = (await existingRoles(services, principal, input.roles)).map((r) => r.name);
    const before = await changeKeyList(services, key.id, 'roles', NOTHING_ATTACHED, ({ roles }) => without(roles, names));
    const remaining = await rolesOfKey(services, key.workspaceId, without(before.roles, names));
    return Promise.all(remaining.map((r) => roleResponse(services, r)));
  },
});
