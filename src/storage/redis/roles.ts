/**
 * Roles in Redis: record hash `role:{<id>}:rec`, name index
 * `role-name:{<digest(ws, lower-cased name)>}:id` (names are unique case-insensitively),
 * workspace listing `role-ws:{<ws>}:ids`.
 *
 * Crash ordering (open.ts): insert claims the name, adds the listing entry, writes the record
 * (commit). delete marks the record first (deleting.ts, so an attach racing with the delete takes
 * the role off its key again), strips the role name from every key of the workspace, then deletes
 * the record (commit), then the listing entry and the name index: a crash part-way leaves the role
 * in place, held by fewer keys, and a retried delete finishes. Cost: every key of the workspace is
 * read (as LMDB's scan).
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { PermissionRecord, RoleRecord } from '../records.js';
import { DuplicateError, type ListOptions, type RoleStore } from '../types.js';
import { markDeleting } from './deleting.js';
import type { RedisKeyStore } from './key-store.js';
import { folded, type StorageKeys } from './keys.js';
import { listIds, matches } from './listing.js';
import type { RecordIo } from './record-io.js';
import { isFresh, type UniqueIndex } from './unique-index.js';

export class RedisRoleStore implements RoleStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
    private readonly keys: RedisKeyStore,
  ) {}

  async insert(record: RoleRecord, event?: AuditEvent): Promise<void> {
    const indexKey = this.k.roleByName(record.workspaceId, record.name);
    const agrees = async (holder: string): Promise<boolean> => {
      const held = await this.get(holder);
      return held !== null && held.workspaceId === record.workspaceId && folded(held.name) === folded(record.name);
    };
    for (;;) {
      const claim = await this.index.claim(indexKey, record.id, agrees);
      if (claim.kind !== 'claimed') throw new DuplicateError('name');
      await this.client.zadd(this.k.rolesOf(record.workspaceId), 0, record.id);
      if (!isFresh(claim)) continue;
      await this.io.write(this.k.role(record.id), '*', { ...record, permissionIds: [...new Set(record.permissionIds)] }, [], event);
      return;
    }
  }

  async get(id: string): Promise<RoleRecord | null> {
    return this.io.get<RoleRecord>(this.k.role(id));
  }

  async findByName(workspaceId: string, name: string): Promise<RoleRecord | null> {
    const holder = await this.index.holder(this.k.roleByName(workspaceId, name));
    if (holder === null) return null;
    const record = await this.get(holder);
    return record && record.workspaceId === workspaceId && folded(record.name) === folded(name) ? record : null;
  }

  async find(workspaceId: string, idOrName: string): Promise<RoleRecord | null> {
    const byId = await this.get(idOrName);
    if (byId && byId.workspaceId === workspaceId) return byId;
    return this.findByName(workspaceId, idOrName);
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<RoleRecord[]> {
    return listIds(this.client, this.k.rolesOf(workspaceId), options,
      (ids) => this.io.getMany<RoleRecord>(ids.map((id) => this.k.role(id))),
      (r) => r.workspaceId === workspaceId && matches(options.search, [r.id, r.name, r.description]));
  }

  async setPermissions(roleId: string, permissionIds: readonly string[], event?: AuditEvent): Promise<RoleRecord | null> {
    return this.io.update<RoleRecord, RoleRecord | null>(this.k.role(roleId), (current) => {
      if (!current) return { result: null };
      const next: RoleRecord = { ...current.record, permissionIds: [...new Set(permissionIds)] };
      return { result: next, write: next };
    }, event);
  }

  async permissionsOf(role: RoleRecord): Promise<PermissionRecord[]> {
    const found = await this.io.getMany<PermissionRecord>(role.permissionIds.map((id) => this.k.permission(id)));
    return found.filter((p) => p !== null);
  }

  async slugsOfRoles(workspaceId: string, roleNames: readonly string[]): Promise<string[]> {
    const roles = await Promise.all(roleNames.map((name) => this.findByName(workspaceId, name)));
    const permissions = await Promise.all(roles.map((role) => (role ? this.permissionsOf(role) : [])));
    return [...new Set(permissions.flat().map((p) => p.slug))];
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const record = await markDeleting<RoleRecord>(this.io, this.k.role(id));
    if (!record) return false;
    const name = folded(record.name);
    await this.keys.rewriteWorkspace(record.workspaceId, (key) => (key.roles.some((r) => folded(r) === name)
      ? { ...key, roles: key.roles.filter((r) => folded(r) !== name) }
      : null));
    // The commit point, and so the event's write.
    const removed = await this.io.update<RoleRecord, boolean>(this.k.role(id),
      (current) => (current ? { result: true, remove: true } : { result: false }), event);
    if (!removed) return false;
    await this.client.zrem(this.k.rolesOf(record.workspaceId), id);
    await this.index.release(this.k.roleByName(record.workspaceId, record.name), id);
    return true;
  }
}
