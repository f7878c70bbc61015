import { defineRoute } from '../../define.js';
import { roleResponse, type RoleResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, existingRoles, rolesSchema, type RolesInput } from '../rbac.js';
import { responseSchema } from './response.js';

export const keysSetRoles = defineRoute<RolesInput, RoleResponse[]>({
  name: 'keys.setRoles',
  responseSchema,
  requestSchema: rolesSchema(0),
  async handle({ input, principal, services }) {
    // Unkey asks only for update_key here (no rbac action), unlike addRoles.
    const key = await authorizedKey(services, principal, input.keyId, []);
    // Every role must exist (404 otherwise, nothing changed); `[]` removes every role.
    const roles = await existingRoles(services, principal, input.roles);
    await changeKeyList(services, key.id, 'roles', { permissions: [], roles }, () => roles.map((r) => r.name));
    // Unkey's answer: the requested roles as found (duplicates collapsed), with their permissions.
    return Promise.all(roles.map((r) => roleResponse(services, r)));
  },
});
