/**
 * Which error codes (src/errors/codes.ts) each procedure can answer, for the OpenAPI document.
 * Statuses, titles and types come from the catalogue; this file only says who throws what.
 * test/openapi/document.test.ts holds it to the route tests: every status a procedure's tests
 * provoke (test/routes/<ns>/<procedure>/<status>.test.ts) must be listed here, and every
 * procedure-specific status listed here must have its test file.
 */
import type { ErrorCode } from '../errors/codes.js';

/**
 * What any procedure can answer before or around its handler: a body that is not JSON or does not
 * fit the schema, a bad root key, a body or headers too large, and faults (a 503 when a storage or
 * limiter backend cannot answer, in the distributed mode).
 */
export const TRANSPORT_ERRORS: readonly ErrorCode[] = [
  'err:unkey:application:invalid_input',
  'err:user:bad_request:request_body_unreadable',
  'err:keygate:authentication:unauthorized',
  'err:keygate:authentication:too_many_failures',
  'err:user:bad_request:request_body_too_large',
  'err:user:bad_request:request_header_fields_too_large',
  'err:unkey:application:unexpected_error',
  'err:svc:application:service_unavailable',
];

/** A root key without the permission the procedure needs. */
export const FORBIDDEN: ErrorCode = 'err:keygate:authorization:forbidden';

/** The handler's own errors, per procedure. keys.whoami and ratelimit.getOverride mask a missing permission as their 404. */
export const PROCEDURE_ERRORS: Readonly<Record<string, readonly ErrorCode[]>> = {
  'analytics.getVerifications': [FORBIDDEN, 'err:user:bad_request:invalid_analytics_query', 'err:user:bad_request:invalid_analytics_query_type',
    'err:user:bad_request:invalid_analytics_table', 'err:user:bad_request:invalid_analytics_function', 'err:user:bad_request:query_range_exceeds_retention',
    'err:user:unprocessable_entity:query_rows_limit_exceeded', 'err:user:unprocessable_entity:query_memory_limit_exceeded', 'err:user:unprocessable_entity:query_execution_timeout',
    'err:user:too_many_requests:query_quota_exceeded'],
  'apis.createApi': [FORBIDDEN],
  'auditLogs.listAuditLogs': [FORBIDDEN],
  'apis.deleteApi': [FORBIDDEN, 'err:unkey:data:api_not_found'],
  'apis.getApi': [FORBIDDEN, 'err:unkey:data:api_not_found'],
  'apis.listApis': [FORBIDDEN],
  'apis.listKeys': [FORBIDDEN, 'err:unkey:data:api_not_found', 'err:unkey:application:precondition_failed'],
  'identities.createIdentity': [FORBIDDEN, 'err:unkey:data:identity_already_exists'],
  'identities.deleteIdentity': [FORBIDDEN, 'err:unkey:data:identity_not_found'],
  'identities.getIdentity': [FORBIDDEN, 'err:unkey:data:identity_not_found'],
  'identities.listIdentities': [FORBIDDEN],
  'identities.updateIdentity': [FORBIDDEN, 'err:unkey:data:identity_not_found'],
  'keys.addPermissions': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:permission_not_found'],
  'keys.addRoles': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:role_not_found'],
  'keys.createKey': [
    FORBIDDEN, 'err:unkey:data:api_not_found', 'err:unkey:data:role_not_found', 'err:unkey:data:permission_not_found', 'err:unkey:application:precondition_failed',
  ],
  'keys.deleteKey': [FORBIDDEN, 'err:unkey:data:key_not_found'],
  'keys.getKey': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:application:precondition_failed'],
  'keys.migrateKeys': [FORBIDDEN, 'err:unkey:data:api_not_found', 'err:unkey:data:migration_not_found'],
  'keys.removePermissions': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:permission_not_found'],
  'keys.removeRoles': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:role_not_found'],
  'keys.rerollKey': [FORBIDDEN, 'err:unkey:data:key_not_found'],
  'keys.setPermissions': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:permission_not_found'],
  'keys.setRoles': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:role_not_found'],
  'keys.updateCredits': [FORBIDDEN, 'err:unkey:data:key_not_found'],
  'keys.updateKey': [FORBIDDEN, 'err:unkey:data:key_not_found', 'err:unkey:data:role_not_found', 'err:unkey:data:permission_not_found'],
  // An unknown or refused key is a 200 (`NOT_FOUND`); a malformed migrated key is a 400.
  'keys.verifyKey': [
    FORBIDDEN, 'err:user:bad_request:permissions_query_syntax_error', 'err:unkey:authentication:malformed', 'err:unkey:application:precondition_failed',
  ],
  'keys.whoami': ['err:unkey:data:key_not_found'],
  'permissions.createPermission': [FORBIDDEN, 'err:unkey:data:permission_already_exists'],
  'permissions.createRole': [FORBIDDEN, 'err:unkey:data:role_already_exists'],
  'permissions.deletePermission': [FORBIDDEN, 'err:unkey:data:permission_not_found'],
  'permissions.deleteRole': [FORBIDDEN, 'err:unkey:data:role_not_found'],
  'permissions.getPermission': [FORBIDDEN, 'err:unkey:data:permission_not_found'],
  'permissions.getRole': [FORBIDDEN, 'err:unkey:data:role_not_found'],
  'permissions.listPermissions': [FORBIDDEN],
  'permissions.listRoles': [FORBIDDEN],
  'permissions.setRolePermissions': [FORBIDDEN, 'err:unkey:data:role_not_found'],
  'ratelimit.deleteOverride': [FORBIDDEN, 'err:unkey:data:ratelimit_namespace_not_found', 'err:unkey:data:ratelimit_override_not_found'],
  'ratelimit.getOverride': ['err:unkey:data:ratelimit_namespace_not_found', 'err:unkey:data:ratelimit_override_not_found'],
  'ratelimit.limit': [FORBIDDEN, 'err:unkey:data:ratelimit_namespace_gone'],
  'ratelimit.listNamespaces': [FORBIDDEN],
  'ratelimit.listOverrides': [FORBIDDEN, 'err:unkey:data:ratelimit_namespace_not_found'],
  'ratelimit.multiLimit': [FORBIDDEN, 'err:unkey:data:ratelimit_namespace_gone'],
  'ratelimit.setOverride': [FORBIDDEN, 'err:unkey:data:ratelimit_namespace_not_found'],
  'rootKeys.createRootKey': [FORBIDDEN],
  'rootKeys.listRootKeys': [FORBIDDEN],
  'rootKeys.revokeRootKey': [FORBIDDEN, 'err:keygate:data:root_key_not_found'],
};
