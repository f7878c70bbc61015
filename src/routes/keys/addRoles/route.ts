import { defineRoute } from '../../define.js';
import { roleResponse, type RoleResponse } from '../../permissions/shared.js';
import { authorizedKey, byField, changeKeyList, existingRoles, holds, rolesOfKey, rolesSchema, type RolesInput } from '../rbac.js';
import { ROLE_LIST } from '../../../shapes/responses.js';
import { roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysAddRoles = defineRoute<RolesInput, RoleResponse[]>({
  name: 'keys.addRoles',
  audited: true,
  // The key's roles before the call, then those added, each with its permissions.
  responseSchema: ROLE_LIST,
  requestSchema: rolesSchema(1),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const key = await authorizedKey(services, principal, input.keyId, ['add_role_to_key']);
    // Every role must exist (by name; 404 otherwise, nothing added). The key stores the role's own name.
    const requested = await existingRoles(services, principal, input.roles);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...roleTargets(requested)], summary: 'added roles to key', changes: changesOf(input, ['keyId']) });
    const before = await changeKeyList(services, key.id, 'roles', { permissions: [], roles: requested }, event, ({ roles }) =>
      [...roles, ...requested.filter((r) => !holds(roles, r.name)).map((r) => r.name)]);
    // Unkey's answer: the roles the key had, by name, then those added now; each with its permissions.
    const previous = (await rolesOfKey(services, key.workspaceId, before.roles)).sort(byField((r) => r.name));
    const added = requested.filter((r) => !holds(before.roles, r.name));
    return Promise.all([...previous, ...added].map((r) => roleResponse(services, r)));
  },
});
