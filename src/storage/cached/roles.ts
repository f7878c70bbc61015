/** Roles, whose permission slugs verification reads for every key with roles, through the record cache. */
import type { AuditEvent } from '../../audit/event.js';
import type { PermissionRecord, RoleRecord } from '../records.js';
import type { ListOptions, RoleStore } from '../types.js';
import { scopedKey, type RecordCache } from './record-cache.js';

export class CachedRoleStore implements RoleStore {
  constructor(private readonly inner: RoleStore, private readonly cache: RecordCache) {}

  slugsOfRoles(workspaceId: string, roleNames: readonly string[]): Promise<string[]> {
    return this.cache.read('roleSlugs', scopedKey(workspaceId, ...roleNames), () => this.inner.slugsOfRoles(workspaceId, roleNames));
  }

  get(id: string): Promise<RoleRecord | null> {
    return this.inner.get(id);
  }

  findByName(workspaceId: string, name: string): Promise<RoleRecord | null> {
    return this.inner.findByName(workspaceId, name);
  }

  find(workspaceId: string, idOrName: string): Promise<RoleRecord | null> {
    return this.inner.find(workspaceId, idOrName);
  }

  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<RoleRecord[]> {
    return this.inner.list(workspaceId, options);
  }

  permissionsOf(role: RoleRecord): Promise<PermissionRecord[]> {
    return this.inner.permissionsOf(role);
  }

  async insert(record: RoleRecord, event?: AuditEvent): Promise<void> {
    await this.inner.insert(record, event);
    await this.cache.changed('roleSlugs');
  }

  async setPermissions(roleId: string, permissionIds: readonly string[], event?: AuditEvent): Promise<RoleRecord | null> {
    const role = await this.inner.setPermissions(roleId, permissionIds, event);
    await this.cache.changed('roleSlugs');
    return role;
  }

  // Removes the role from every key of the workspace: any cached key may be affected.
  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.delete(id, event);
    await this.cache.changed('roleSlugs');
    await this.cache.changed('key');
    return done;
  }
}
