import { defineRoute } from '../../define.js';
import { permissionResponse, type PermissionResponse } from '../../permissions/shared.js';
import {
  authorizedKey, changeKeyList, existingPermissions, NOTHING_ATTACHED, permissionsOfKey, permissionsSchema, without, type PermissionsInput,
} from '../rbac.js';
import { responseSchema } from './response.js';

export const keysRemovePermissions = defineRoute<PermissionsInput, PermissionResponse[]>({
  name: 'keys.removePermissions',
  responseSchema,
  requestSchema: permissionsSchema(1),
  async handle({ input, principal, services }) {
    const key = await authorizedKey(services, principal, input.keyId, ['remove_permission_from_key']);
    // Every slug must exist (404 otherwise, nothing removed); known but unattached ones are ignored.
    const slugs = (await existingPermissions(services, principal, input.permissions)).map((p) => p.slug);
    // Only direct permissions are removed: a slug the key also gets through a role stays effective.
    const before = await changeKeyList(services, key.id, 'permissions', NOTHING_ATTACHED, ({ permissions }) => without(permissions, slugs));
    return (await permissionsOfKey(services, key.workspaceId, without(before.permissions, slugs))).map(permissionResponse);
  },
});
