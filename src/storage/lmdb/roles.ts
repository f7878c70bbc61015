import type { PermissionRecord, RoleRecord } from '../records.js';
import { DuplicateError, type ListOptions, type RoleStore } from '../types.js';
import type { LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { foldedKey, rewriteKeys } from './permissions.js';
import { noteChange } from './changes.js';

export class LmdbRoleStore implements RoleStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: RoleRecord, event?: AuditEvent): Promise<void> {
    const indexKey = foldedKey(record.workspaceId, record.name);
    await this.t.root.transaction(() => {
      if (this.t.roleByName.get(indexKey) !== undefined) throw new DuplicateError('name');
      noteAudit(this.t.audit, event);
      this.t.roles.put(record.id, { ...record, permissionIds: [...new Set(record.permissionIds)] });
      this.t.roleByName.put(indexKey, record.id);
      noteChange(this.t.changes, { kind: 'roles' });
    });
  }

  async get(id: string): Promise<RoleRecord | null> {
    return (this.t.roles.get(id) as RoleRecord | undefined) ?? null;
  }

  async findByName(workspaceId: string, name: string): Promise<RoleRecord | null> {
    const id = this.t.roleByName.get(foldedKey(workspaceId, name));
    return id === undefined ? null : this.get(id);
  }

  async find(workspaceId: string, idOrName: string): Promise<RoleRecord | null> {
    const byId = await this.get(idOrName);
    if (byId && byId.workspaceId === workspaceId) return byId;
    return this.findByName(workspaceId, idOrName);
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<RoleRecord[]> {
    const needle = options.search?.trim().toLowerCase();
    const out: RoleRecord[] = [];
    for (const { value } of this.t.roles.getRange({ start: options.cursor ?? '' })) {
      const record = value as RoleRecord;
      if (record.workspaceId !== workspaceId) continue;
      if (needle && ![record.id, record.name, record.description ?? ''].some((f) => f.toLowerCase().includes(needle))) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }

  async setPermissions(roleId: string, permissionIds: readonly string[], event?: AuditEvent): Promise<RoleRecord | null> {
    return this.t.root.transaction(() => {
      const role = this.t.roles.get(roleId) as RoleRecord | undefined;
      if (!role) return null;
      noteAudit(this.t.audit, event);
      const next: RoleRecord = { ...role, permissionIds: [...new Set(permissionIds)] };
      this.t.roles.put(roleId, next);
      noteChange(this.t.changes, { kind: 'roles' });
      return next;
    });
  }

  async permissionsOf(role: RoleRecord): Promise<PermissionRecord[]> {
    const out: PermissionRecord[] = [];
    for (const id of role.permissionIds) {
      const permission = this.t.permissions.get(id) as PermissionRecord | undefined;
      if (permission) out.push(permission);
    }
    return out;
  }

  async slugsOfRoles(workspaceId: string, roleNames: readonly string[]): Promise<string[]> {
    const slugs = new Set<string>();
    for (const name of roleNames) {
      const role = await this.findByName(workspaceId, name);
      if (!role) continue;
      for (const permission of await this.permissionsOf(role)) slugs.add(permission.slug);
    }
    return [...slugs];
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.roles.get(id) as RoleRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      this.t.roles.remove(id);
      this.t.roleByName.remove(foldedKey(record.workspaceId, record.name));
      const folded = record.name.toLowerCase();
      rewriteKeys(this.t, record.workspaceId, (key) => key.roles.some((r) => r.toLowerCase() === folded)
        ? { ...key, roles: key.roles.filter((r) => r.toLowerCase() !== folded) }
        : null);
      noteChange(this.t.changes, { kind: 'roles' });
      return true;
    });
  }
}
