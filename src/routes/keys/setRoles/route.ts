import { defineRoute } from '../../define.js';
import { roleResponse, type RoleResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, existingRoles, rolesSchema, type RolesInput } from '../rbac.js';
import { ROLE_LIST } from '../../../shapes/responses.js';
import { roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysSetRoles = defineRoute<RolesInput, RoleResponse[]>({
  name: 'keys.setRoles',
  audited: true,
  // The key's roles as set, each with its permissions.
  responseSchema: ROLE_LIST,
  requestSchema: rolesSchema(0),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Unkey asks only for update_key here (no rbac action), unlike addRoles.
    const key = await authorizedKey(services, principal, input.keyId, []);
    // Every role must exist (404 otherwise, nothing changed); `[]` removes every role.
    const roles = await existingRoles(services, principal, input.roles);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...roleTargets(roles)], summary: 'set the roles of key', changes: changesOf(input, ['keyId']) });
    await changeKeyList(services, key.id, 'roles', { permissions: [], roles }, event, () => roles.map((r) => r.name));
    // Unkey's answer: the requested roles as found (duplicates collapsed), with their permissions.
    return Promise.all(roles.map((r) => roleResponse(services, r)));
  },
});
