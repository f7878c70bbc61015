/**
 * Permissions in Redis: record hash `perm:{<id>}:rec`, slug index
 * `perm-slug:{<digest(ws, lower-cased slug)>}:id` (slugs are unique case-insensitively), workspace
 * listing `perm-ws:{<ws>}:ids`.
 *
 * Crash ordering (open.ts): insert claims the slug, adds the listing entry, writes the record
 * (commit). delete cannot be one atomic write across slots, so it marks, strips, and commits last:
 * the record is marked (deleting.ts, so an attach racing with the delete takes the slug off its
 * key again), every role of the workspace loses the permission id, every key loses the slug, then
 * the record is deleted, then the listing entry and the slug index go. A crash part-way leaves the
 * permission in place, held by fewer roles and keys (a state a user could have made); a retried
 * delete finishes. Cost: every role and every key of the workspace is read (as LMDB's scan).
 * getOrCreateMany creates slug by slug: concurrent callers still share one record per slug, and
 * a crash leaves the slugs created so far, each whole.
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import type { PermissionRecord, RoleRecord } from '../records.js';
import { DuplicateError, type ListOptions, type PermissionStore } from '../types.js';
import { markDeleting } from './deleting.js';
import type { RedisKeyStore } from './key-store.js';
import { folded, type StorageKeys } from './keys.js';
import { listIds, matches } from './listing.js';
import type { RecordIo } from './record-io.js';
import { getOrInsert, isFresh, type UniqueIndex } from './unique-index.js';

export class RedisPermissionStore implements PermissionStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
    private readonly keys: RedisKeyStore,
  ) {}

  private agrees(workspaceId: string, slug: string): (holder: string) => Promise<boolean> {
    return async (holder) => {
      const record = await this.get(holder);
      return record !== null && record.workspaceId === workspaceId && folded(record.slug) === folded(slug);
    };
  }

  private async store(record: PermissionRecord, event?: AuditEvent): Promise<void> {
    await this.client.zadd(this.k.permissionsOf(record.workspaceId), 0, record.id);
    await this.io.write(this.k.permission(record.id), '*', record, [], event);
  }

  async insert(record: PermissionRecord, event?: AuditEvent): Promise<void> {
    const indexKey = this.k.permissionBySlug(record.workspaceId, record.slug);
    for (;;) {
      const claim = await this.index.claim(indexKey, record.id, this.agrees(record.workspaceId, record.slug));
      if (claim.kind !== 'claimed') throw new DuplicateError('slug');
      if (isFresh(claim)) return this.store(record, event);
    }
  }

  async get(id: string): Promise<PermissionRecord | null> {
    return this.io.get<PermissionRecord>(this.k.permission(id));
  }

  async findBySlug(workspaceId: string, slug: string): Promise<PermissionRecord | null> {
    const holder = await this.index.holder(this.k.permissionBySlug(workspaceId, slug));
    if (holder === null) return null;
    const record = await this.get(holder);
    return record && record.workspaceId === workspaceId && folded(record.slug) === folded(slug) ? record : null;
  }

  async find(workspaceId: string, idOrSlug: string): Promise<PermissionRecord | null> {
    const byId = await this.get(idOrSlug);
    if (byId && byId.workspaceId === workspaceId) return byId;
    return this.findBySlug(workspaceId, idOrSlug);
  }

  async getOrCreateMany(workspaceId: string, slugs: readonly string[], create: (slug: string) => PermissionRecord): Promise<PermissionRecord[]> {
    const wanted = new Map<string, string>();
    for (const slug of slugs) if (!wanted.has(folded(slug))) wanted.set(folded(slug), slug);
    const out: PermissionRecord[] = [];
    for (const slug of wanted.values()) {
      out.push(await getOrInsert(this.index, this.k.permissionBySlug(workspaceId, slug), () => this.findBySlug(workspaceId, slug),
        this.agrees(workspaceId, slug), () => create(slug), (r) => this.store(r)));
    }
    return out;
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<PermissionRecord[]> {
    return listIds(this.client, this.k.permissionsOf(workspaceId), options,
      (ids) => this.io.getMany<PermissionRecord>(ids.map((id) => this.k.permission(id))),
      (r) => r.workspaceId === workspaceId && matches(options.search, [r.id, r.name, r.slug, r.description]));
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const record = await markDeleting<PermissionRecord>(this.io, this.k.permission(id));
    if (!record) return false;
    const roles = await listIds<RoleRecord>(this.client, this.k.rolesOf(record.workspaceId), { limit: Number.POSITIVE_INFINITY },
      (ids) => this.io.getMany<RoleRecord>(ids.map((roleId) => this.k.role(roleId))),
      (role) => role.workspaceId === record.workspaceId && role.permissionIds.includes(id));
    await Promise.all(roles.map((role) => this.io.update<RoleRecord, void>(this.k.role(role.id), (current) => (current
      ? { result: undefined, write: { ...current.record, permissionIds: current.record.permissionIds.filter((p) => p !== id) } }
      : { result: undefined }))));
    const slug = folded(record.slug);
    await this.keys.rewriteWorkspace(record.workspaceId, (key) => (key.permissions.some((p) => folded(p) === slug)
      ? { ...key, permissions: key.permissions.filter((p) => folded(p) !== slug) }
      : null));
    // The commit point, and so the event's write.
    const removed = await this.io.update<PermissionRecord, boolean>(this.k.permission(id),
      (current) => (current ? { result: true, remove: true } : { result: false }), event);
    if (!removed) return false;
    await this.client.zrem(this.k.permissionsOf(record.workspaceId), id);
    await this.index.release(this.k.permissionBySlug(record.workspaceId, record.slug), id);
    return true;
  }
}
