import { defineRoute } from '../../define.js';
import { roleResponse, type RoleResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, existingRoles, NOTHING_ATTACHED, rolesOfKey, rolesSchema, without, type RolesInput } from '../rbac.js';
import { ROLE_LIST } from '../../../shapes/responses.js';
import { roleTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysRemoveRoles = defineRoute<RolesInput, RoleResponse[]>({
  name: 'keys.removeRoles',
  audited: true,
  // The key's roles that remain, each with its permissions.
  responseSchema: ROLE_LIST,
  requestSchema: rolesSchema(1),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    // Unkey asks only for update_key here (no rbac action), unlike addRoles.
    const key = await authorizedKey(services, principal, input.keyId, []);
    // Every role must exist (404 otherwise, nothing removed); roles not on the key are ignored.
    const found = await existingRoles(services, principal, input.roles);
    const names = found.map((r) => r.name);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...roleTargets(found)], summary: 'removed roles from key', changes: changesOf(input, ['keyId']) });
    const before = await changeKeyList(services, key.id, 'roles', NOTHING_ATTACHED, event, ({ roles }) => without(roles, names));
    const remaining = await rolesOfKey(services, key.workspaceId, without(before.roles, names));
    return Promise.all(remaining.map((r) => roleResponse(services, r)));
  },
});
