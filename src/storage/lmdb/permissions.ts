import type { KeyRecord, PermissionRecord, RoleRecord } from '../records.js';
import { DuplicateError, type ListOptions, type PermissionStore } from '../types.js';
import { scoped, type LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import type { AuditEvent } from '../../audit/event.js';
import { noteChange } from './changes.js';

/** Slugs and role names are unique case-insensitively, so their index keys are lower-cased. */
export const foldedKey = (workspaceId: string, value: string): string => scoped(workspaceId, value.toLowerCase());

/**
 * Inside a write transaction: rewrites every key of the workspace for which `change` returns a
 * new record. The keys are collected first, so the range is not read while it is written.
 */
export function rewriteKeys(t: LmdbTables, workspaceId: string, change: (key: KeyRecord) => KeyRecord | null): void {
  const changed: KeyRecord[] = [];
  for (const { value } of t.keys.getRange()) {
    const key = value as KeyRecord;
    if (key.workspaceId !== workspaceId) continue;
    const next = change(key);
    if (next) changed.push(next);
  }
  for (const key of changed) {
    t.keys.put(key.id, key);
    noteChange(t.changes, { kind: 'key', id: key.id, hashes: [key.hash] });
  }
}

export class LmdbPermissionStore implements PermissionStore {
  constructor(private readonly t: LmdbTables) {}

  async insert(record: PermissionRecord, event?: AuditEvent): Promise<void> {
    const indexKey = foldedKey(record.workspaceId, record.slug);
    await this.t.root.transaction(() => {
      if (this.t.permissionBySlug.get(indexKey) !== undefined) throw new DuplicateError('slug');
      noteAudit(this.t.audit, event);
      this.t.permissions.put(record.id, record);
      this.t.permissionBySlug.put(indexKey, record.id);
    });
  }

  async get(id: string): Promise<PermissionRecord | null> {
    return (this.t.permissions.get(id) as PermissionRecord | undefined) ?? null;
  }

  async findBySlug(workspaceId: string, slug: string): Promise<PermissionRecord | null> {
    const id = this.t.permissionBySlug.get(foldedKey(workspaceId, slug));
    return id === undefined ? null : this.get(id);
  }

  async find(workspaceId: string, idOrSlug: string): Promise<PermissionRecord | null> {
    const byId = await this.get(idOrSlug);
    if (byId && byId.workspaceId === workspaceId) return byId;
    return this.findBySlug(workspaceId, idOrSlug);
  }

  async getOrCreateMany(workspaceId: string, slugs: readonly string[], create: (slug: string) => PermissionRecord): Promise<PermissionRecord[]> {
    const wanted = new Map<string, string>();
    for (const slug of slugs) if (!wanted.has(slug.toLowerCase())) wanted.set(slug.toLowerCase(), slug);
    const lookup = (): (PermissionRecord | null)[] => [...wanted.keys()].map((folded) => {
      const id = this.t.permissionBySlug.get(scoped(workspaceId, folded));
      return id === undefined ? null : ((this.t.permissions.get(id) as PermissionRecord | undefined) ?? null);
    });
    const found = lookup();
    if (found.every((p) => p !== null)) return found as PermissionRecord[];
    // Read again inside the write transaction, so concurrent callers share one record per slug.
    return this.t.root.transaction(() => {
      const again = lookup();
      return [...wanted.values()].map((slug, i) => {
        const existing = again[i];
        if (existing) return existing;
        const record = create(slug);
        this.t.permissions.put(record.id, record);
        this.t.permissionBySlug.put(foldedKey(workspaceId, slug), record.id);
        return record;
      });
    });
  }

  async list(workspaceId: string, options: ListOptions & { search?: string }): Promise<PermissionRecord[]> {
    const needle = options.search?.trim().toLowerCase();
    const out: PermissionRecord[] = [];
    for (const { value } of this.t.permissions.getRange({ start: options.cursor ?? '' })) {
      const record = value as PermissionRecord;
      if (record.workspaceId !== workspaceId) continue;
      if (needle && ![record.id, record.name, record.slug, record.description ?? ''].some((f) => f.toLowerCase().includes(needle))) continue;
      out.push(record);
      if (out.length >= options.limit) break;
    }
    return out;
  }

  async delete(id: string, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const record = this.t.permissions.get(id) as PermissionRecord | undefined;
      if (!record) return false;
      noteAudit(this.t.audit, event);
      this.t.permissions.remove(id);
      this.t.permissionBySlug.remove(foldedKey(record.workspaceId, record.slug));
      const roles: RoleRecord[] = [];
      for (const { value } of this.t.roles.getRange()) {
        const role = value as RoleRecord;
        if (role.workspaceId === record.workspaceId && role.permissionIds.includes(id)) roles.push(role);
      }
      for (const role of roles) this.t.roles.put(role.id, { ...role, permissionIds: role.permissionIds.filter((p) => p !== id) });
      const folded = record.slug.toLowerCase();
      rewriteKeys(this.t, record.workspaceId, (key) => key.permissions.some((p) => p.toLowerCase() === folded)
        ? { ...key, permissions: key.permissions.filter((p) => p.toLowerCase() !== folded) }
        : null);
      noteChange(this.t.changes, { kind: 'roles' });
      return true;
    });
  }
}
