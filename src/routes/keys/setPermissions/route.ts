import { defineRoute } from '../../define.js';
import { permissionResponse, type PermissionResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, permissionsSchema, resolvePermissions, type PermissionsInput } from '../rbac.js';
import { PERMISSION_LIST } from '../../../shapes/responses.js';
import { permissionTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysSetPermissions = defineRoute<PermissionsInput, PermissionResponse[]>({
  name: 'keys.setPermissions',
  audited: true,
  // The key's direct permissions as set.
  responseSchema: PERMISSION_LIST,
  requestSchema: permissionsSchema(0),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const key = await authorizedKey(services, principal, input.keyId, ['add_permission_to_key', 'remove_permission_from_key']);
    // Unknown slugs are created here, which needs rbac.*.create_permission (403 before any write).
    const permissions = await resolvePermissions(services, principal, input.permissions);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...permissionTargets(permissions)], summary: 'set the permissions of key', changes: changesOf(input, ['keyId']) });
    await changeKeyList(services, key.id, 'permissions', { permissions, roles: [] }, event, () => permissions.map((p) => p.slug));
    // Unkey's answer: the resulting direct set, existing permissions first, then the created ones.
    return permissions.map(permissionResponse);
  },
});
