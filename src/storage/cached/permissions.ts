/** Permissions: not read through the cache, but deleting one changes cached roles and keys. */
import type { AuditEvent } from '../../audit/event.js';
import type { PermissionRecord } from '../records.js';
import type { ListOptions, PermissionStore } from '../types.js';
import type { RecordCache } from './record-cache.js';

export class CachedPermissionStore implements PermissionStore {
  constructor(private readonly inner: PermissionStore, private readonly cache: RecordCache) {}

  get(id: string): Promise<PermissionRecord | null> {
    return this.inner.get(id);
  }

  findBySlug(workspaceId: string, slug: string): Promise<PermissionRecord | null> {
    return this.inner.findBySlug(workspaceId, slug);
  }

  find(workspaceId: string, idOrSlug: string): Promise<PermissionRecord | null> {
    return this.inner.find(workspaceId, idOrSlug);
  }

  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<PermissionRecord[]> {
    return this.inner.list(workspaceId, options);
  }

  // A new permission is in no role or key yet: nothing cached can change.
  insert(record: PermissionRecord, event?: AuditEvent): Promise<void> {
    return this.inner.insert(record, event);
  }

  getOrCreateMany(workspaceId: string, slugs: readonly string[], create: (slug: string) => PermissionRecord): Promise<PermissionRecord[]> {
    return this.inner.getOrCreateMany(workspaceId, slugs, create);
  }

  // Removes the permission from every role and key of the workspace.
  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    const done = await this.inner.delete(id, event);
    await this.cache.changed('roleSlugs');
    await this.cache.changed('key');
    return done;
  }
}
