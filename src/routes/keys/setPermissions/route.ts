import { defineRoute } from '../../define.js';
import { permissionResponse, type PermissionResponse } from '../../permissions/shared.js';
import { authorizedKey, changeKeyList, permissionsSchema, resolvePermissions, type PermissionsInput } from '../rbac.js';
import { responseSchema } from './response.js';

export const keysSetPermissions = defineRoute<PermissionsInput, PermissionResponse[]>({
  name: 'keys.setPermissions',
  responseSchema,
  requestSchema: permissionsSchema(0),
  async handle({ input, principal, services }) {
    const key = await authorizedKey(services, principal, input.keyId, ['add_permission_to_key', 'remove_permission_from_key']);
    // Unknown slugs are created here, which needs rbac.*.create_permission (403 before any write).
    const permissions = await resolvePermissions(services, principal, input.permissions);
    await changeKeyList(services, key.id, 'permissions', { permissions, roles: [] }, () => permissions.map((p) => p.slug));
    // Unkey's answer: the resulting direct set, existing permissions first, then the created ones.
    return permissions.map(permissionResponse);
  },
});
