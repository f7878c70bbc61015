import { defineRoute } from '../../define.js';
import { permissionResponse, type PermissionResponse } from '../../permissions/shared.js';
import {
  authorizedKey, changeKeyList, existingPermissions, NOTHING_ATTACHED, permissionsOfKey, permissionsSchema, without, type PermissionsInput,
} from '../rbac.js';
import { PERMISSION_LIST } from '../../../shapes/responses.js';
import { permissionTargets, target } from '../../../audit/targets.js';
import { changesOf } from '../../../audit/changes.js';

export const keysRemovePermissions = defineRoute<PermissionsInput, PermissionResponse[]>({
  name: 'keys.removePermissions',
  audited: true,
  // The key's direct permissions that remain.
  responseSchema: PERMISSION_LIST,
  requestSchema: permissionsSchema(1),
  async handle(ctx) {
    const { input, principal, services } = ctx;
    const key = await authorizedKey(services, principal, input.keyId, ['remove_permission_from_key']);
    // Every slug must exist (404 otherwise, nothing removed); known but unattached ones are ignored.
    const found = await existingPermissions(services, principal, input.permissions);
    const slugs = found.map((p) => p.slug);
    const event = ctx.audit({ targets: [target('key', key.id, key.name), target('api', key.apiId), ...permissionTargets(found)], summary: 'removed permissions from key', changes: changesOf(input, ['keyId']) });
    // Only direct permissions are removed: a slug the key also gets through a role stays effective.
    const before = await changeKeyList(services, key.id, 'permissions', NOTHING_ATTACHED, event, ({ permissions }) => without(permissions, slugs));
    return (await permissionsOfKey(services, key.workspaceId, without(before.permissions, slugs))).map(permissionResponse);
  },
});
