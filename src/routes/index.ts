/**
 * Every procedure keygate serves, grouped by namespace. Explicit on purpose: grep for a wire name
 * and you find its registration here, its folder under routes/ and its tests under test/routes/.
 */
import type { Route } from './define.js';
import { analyticsGetVerifications } from './analytics/getVerifications/route.js';
import { apisCreateApi } from './apis/createApi/route.js';
import { auditLogsListAuditLogs } from './auditLogs/listAuditLogs/route.js';
import { apisDeleteApi } from './apis/deleteApi/route.js';
import { apisGetApi } from './apis/getApi/route.js';
import { apisListApis } from './apis/listApis/route.js';
import { apisListKeys } from './apis/listKeys/route.js';
import { identitiesCreateIdentity } from './identities/createIdentity/route.js';
import { identitiesDeleteIdentity } from './identities/deleteIdentity/route.js';
import { identitiesGetIdentity } from './identities/getIdentity/route.js';
import { identitiesListIdentities } from './identities/listIdentities/route.js';
import { identitiesUpdateIdentity } from './identities/updateIdentity/route.js';
import { keysAddPermissions } from './keys/addPermissions/route.js';
import { keysAddRoles } from './keys/addRoles/route.js';
import { keysCreateKey } from './keys/createKey/route.js';
import { keysDeleteKey } from './keys/deleteKey/route.js';
import { keysGetKey } from './keys/getKey/route.js';
import { keysMigrateKeys } from './keys/migrateKeys/route.js';
import { keysRemovePermissions } from './keys/removePermissions/route.js';
import { keysRemoveRoles } from './keys/removeRoles/route.js';
import { keysRerollKey } from './keys/rerollKey/route.js';
import { keysSetPermissions } from './keys/setPermissions/route.js';
import { keysSetRoles } from './keys/setRoles/route.js';
import { keysUpdateCredits } from './keys/updateCredits/route.js';
import { keysUpdateKey } from './keys/updateKey/route.js';
import { keysVerifyKey } from './keys/verifyKey/route.js';
import { keysWhoami } from './keys/whoami/route.js';
import { permissionsCreatePermission } from './permissions/createPermission/route.js';
import { permissionsCreateRole } from './permissions/createRole/route.js';
import { permissionsDeletePermission } from './permissions/deletePermission/route.js';
import { permissionsDeleteRole } from './permissions/deleteRole/route.js';
import { permissionsGetPermission } from './permissions/getPermission/route.js';
import { permissionsGetRole } from './permissions/getRole/route.js';
import { permissionsListPermissions } from './permissions/listPermissions/route.js';
import { permissionsListRoles } from './permissions/listRoles/route.js';
import { permissionsSetRolePermissions } from './permissions/setRolePermissions/route.js';
import { ratelimitDeleteOverride } from './ratelimit/deleteOverride/route.js';
import { ratelimitGetOverride } from './ratelimit/getOverride/route.js';
import { ratelimitLimit } from './ratelimit/limit/route.js';
import { ratelimitListNamespaces } from './ratelimit/listNamespaces/route.js';
import { ratelimitListOverrides } from './ratelimit/listOverrides/route.js';
import { ratelimitMultiLimit } from './ratelimit/multiLimit/route.js';
import { ratelimitSetOverride } from './ratelimit/setOverride/route.js';
import { rootKeysCreateRootKey } from './rootKeys/createRootKey/route.js';
import { rootKeysListRootKeys } from './rootKeys/listRootKeys/route.js';
import { rootKeysRevokeRootKey } from './rootKeys/revokeRootKey/route.js';

export const routes: readonly Route[] = [
  // analytics
  analyticsGetVerifications,
  // apis
  apisCreateApi,
  apisDeleteApi,
  apisGetApi,
  apisListApis,
  apisListKeys,
  // auditLogs (keygate's own: docs/audit-log.md)
  auditLogsListAuditLogs,
  // identities
  identitiesCreateIdentity,
  identitiesDeleteIdentity,
  identitiesGetIdentity,
  identitiesListIdentities,
  identitiesUpdateIdentity,
  // keys
  keysAddPermissions,
  keysAddRoles,
  keysCreateKey,
  keysDeleteKey,
  keysGetKey,
  keysMigrateKeys,
  keysRemovePermissions,
  keysRemoveRoles,
  keysRerollKey,
  keysSetPermissions,
  keysSetRoles,
  keysUpdateCredits,
  keysUpdateKey,
  keysVerifyKey,
  keysWhoami,
  // permissions
  permissionsCreatePermission,
  permissionsCreateRole,
  permissionsDeletePermission,
  permissionsDeleteRole,
  permissionsGetPermission,
  permissionsGetRole,
  permissionsListPermissions,
  permissionsListRoles,
  permissionsSetRolePermissions,
  // ratelimit
  ratelimitDeleteOverride,
  ratelimitGetOverride,
  ratelimitLimit,
  ratelimitListNamespaces,
  ratelimitListOverrides,
  ratelimitMultiLimit,
  ratelimitSetOverride,
  // rootKeys (keygate's own: root keys are managed through the API and the dashboard)
  rootKeysCreateRootKey,
  rootKeysListRootKeys,
  rootKeysRevokeRootKey,
] as Route[];
