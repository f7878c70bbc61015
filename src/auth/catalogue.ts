/**
 * The permission catalogue: every action a root key can be granted, by resource type. Kept free
 * of imports so the dashboard's bundle can show the same list (web/dashboard/pages/root-keys.tsx).
 */
export const ACTIONS = {
  api: ['read_api', 'create_api', 'delete_api', 'update_api', 'create_key', 'update_key', 'delete_key',
    'encrypt_key', 'decrypt_key', 'read_key', 'verify_key', 'read_analytics'],
  ratelimit: ['limit', 'create_namespace', 'read_namespace', 'update_namespace', 'delete_namespace',
    'set_override', 'read_override', 'delete_override', 'list_overrides'],
  rbac: ['create_permission', 'update_permission', 'delete_permission', 'read_permission', 'create_role',
    'update_role', 'delete_role', 'read_role', 'add_permission_to_key', 'remove_permission_from_key',
    'add_role_to_key', 'remove_role_from_key', 'add_permission_to_role', 'remove_permission_from_role'],
  identity: ['create_identity', 'read_identity', 'update_identity', 'delete_identity'],
  // keygate's own (Unkey manages root keys outside its API): the rootKeys.* procedures, which
  // the dashboard uses too. Only `root_key.*.<action>`: they apply to every root key.
  root_key: ['create_root_key', 'read_root_key', 'revoke_root_key'],
  // keygate's own: auditLogs.listAuditLogs (docs/audit-log.md). Only `audit_log.*.<action>`.
  audit_log: ['read_audit_log'],
} as const satisfies Record<string, readonly string[]>;
