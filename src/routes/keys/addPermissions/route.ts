import { defineRoute } from '../../define.js';
import { permissionResponse, type PermissionResponse } from '../../permissions/shared.js';
import {
  authorizedKey, byField, changeKeyList, holds, permissionsOfKey, permissionsSchema, resolvePermissions, type PermissionsInput,
} from '../rbac.js';
import { PERMISSION_LIST } from '../../../shapes/responses.js';
import { permissionTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysAddPermissions = defineRoute<PermissionsInput, PermissionResponse[]>({
  name: 'keys.addPermissions',
  audited: true,
  // The key's direct permissions before the call, then those added.
  responseSchema: PERMISSION_LIST,
  requestSchema: permissionsSchema(1),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const key = await authorizedKey(services, principal, input.keyId, ['add_permission_to_key']);
    // Unknown slugs are created here, which needs rbac.*.create_permission (403 before any write).
    const requested = await resolvePermissions(services, principal, input.permissions);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...permissionTargets(requested)], summary: 'added permissions to key', changes: changesOf(input, ['keyId']) });
    const before = await changeKeyList(services, key.id, 'permissions', { permissions: requested, roles: [] }, event, ({ permissions }) =>
      [...permissions, ...requested.filter((p) => !holds(permissions, p.slug)).map((p) => p.slug)]);
    // Unkey's answer: the direct permissions the key had, by slug, then those attached now.
    const previous = (await permissionsOfKey(services, key.workspaceId, before.permissions)).sort(byField((p) => p.slug));
    const added = requested.filter((p) => !holds(before.permissions, p.slug));
    return [...previous, ...added].map(permissionResponse);
  },
});
