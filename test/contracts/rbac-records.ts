/** Records for the RBAC contract suites: unique ids, the workspace of the tests, fields overridable. */
import { randomBytes } from 'node:crypto';
import { WORKSPACE_ID, type KeyRecord, type PermissionRecord, type RoleRecord } from '../../src/storage/records.js';

let counter = 0;
const id = (prefix: string): string => `${prefix}_${(++counter).toString(36).padStart(4, '0')}${randomBytes(6).toString('hex')}`;

export function permission(slug: string, overrides: Partial<PermissionRecord> = {}): PermissionRecord {
  return { id: id('perm'), workspaceId: WORKSPACE_ID, name: slug, slug, createdAt: 1_000, ...overrides };
}

export function role(name: string, permissionIds: string[] = [], overrides: Partial<RoleRecord> = {}): RoleRecord {
  return { id: id('role'), workspaceId: WORKSPACE_ID, name, permissionIds, createdAt: 1_000, ...overrides };
}

export function key(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    id: id('key'), workspaceId: WORKSPACE_ID, apiId: 'api_1', keyspaceId: 'ks_1', hash: randomBytes(32).toString('base64'),
    start: 'prod_3ZxK', enabled: true, hasCredits: false, ratelimits: [], permissions: [], roles: [], createdAt: 1_000, ...overrides,
  };
}
