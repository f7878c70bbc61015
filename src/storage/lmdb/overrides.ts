/**
 * Rate-limit overrides in LMDB. Records by id, plus three indexes:
 * - `overrideByIdentifier`: scoped(namespaceId, identifier) → id, deleted overrides included, so
 *   setOverride finds a deleted one again and revives it with its id; and the exact match of
 *   ratelimit.limit is one read of it.
 * - `overrideByNamespace`: `<namespaceId>/<overrideId>` → id of live overrides (listOverrides).
 * - `overrideWildcards`: the same for live overrides whose identifier contains `*`, so the
 *   wildcard candidates of a namespace are found without reading its exact overrides.
 * The ranged indexes use a printable separator ('/', never part of an id): lmdb-js encodes long
 * keys that contain control characters differently, which breaks range scans (see keys.ts).
 */
import type { RatelimitOverrideRecord } from '../records.js';
import type { ListOptions, OverrideStore, OverrideValues } from '../types.js';
import { scoped, type LmdbTables } from './open.js';
import { noteAudit } from './audit.js';
import { withOverrideId } from '../../audit/targets.js';
import type { AuditEvent } from '../../audit/event.js';

const inNamespace = (namespaceId: string, overrideId: string): string => `${namespaceId}/${overrideId}`;
/** '0' follows '/': ranges from `<ns>/…` to `<ns>0` cover exactly one namespace. */
const namespaceEnd = (namespaceId: string): string => `${namespaceId}0`;
const isPattern = (identifier: string): boolean => identifier.includes('*');

export class LmdbOverrideStore implements OverrideStore {
  constructor(private readonly t: LmdbTables) {}

  async set(values: OverrideValues, atMs: number, newId: string, event?: AuditEvent): Promise<RatelimitOverrideRecord> {
    const key = scoped(values.namespaceId, values.identifier);
    return this.t.root.transaction(() => {
      // Read inside the write transaction: concurrent sets of one pair end with one record.
      const id = this.t.overrideByIdentifier.get(key);
      const existing = id === undefined ? undefined : (this.t.overrides.get(id) as RatelimitOverrideRecord | undefined);
      let record: RatelimitOverrideRecord;
      if (existing) {
        const { deletedAt: _revived, ...rest } = existing;
        record = { ...rest, limit: values.limit, duration: values.duration, updatedAt: atMs };
      } else {
        record = {
          id: newId, workspaceId: values.workspaceId, namespaceId: values.namespaceId, identifier: values.identifier,
          limit: values.limit, duration: values.duration, createdAt: atMs,
        };
        this.t.overrideByIdentifier.put(key, record.id);
      }
      this.t.overrides.put(record.id, record);
      this.index(record);
      noteAudit(this.t.audit, withOverrideId(event, record.id));
      return record;
    });
  }

  async get(id: string): Promise<RatelimitOverrideRecord | null> {
    return (this.t.overrides.get(id) as RatelimitOverrideRecord | undefined) ?? null;
  }

  async findExact(namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null> {
    const id = this.t.overrideByIdentifier.get(scoped(namespaceId, identifier));
    if (id === undefined) return null;
    const record = this.t.overrides.get(id) as RatelimitOverrideRecord | undefined;
    return record && record.deletedAt === undefined ? record : null;
  }

  async wildcards(namespaceId: string): Promise<RatelimitOverrideRecord[]> {
    return this.scan(this.t.overrideWildcards, inNamespace(namespaceId, ''), namespaceEnd(namespaceId), Number.POSITIVE_INFINITY);
  }

  async list(namespaceId: string, options: ListOptions): Promise<RatelimitOverrideRecord[]> {
    return this.scan(this.t.overrideByNamespace, inNamespace(namespaceId, options.cursor ?? ''), namespaceEnd(namespaceId), options.limit);
  }

  async delete(namespaceId: string, identifier: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    return this.t.root.transaction(() => {
      const id = this.t.overrideByIdentifier.get(scoped(namespaceId, identifier));
      const record = id === undefined ? undefined : (this.t.overrides.get(id) as RatelimitOverrideRecord | undefined);
      if (!record || record.deletedAt !== undefined) return false;
      noteAudit(this.t.audit, withOverrideId(event, record.id));
      // The identifier index stays: a later set revives this record with its id.
      this.t.overrides.put(record.id, { ...record, deletedAt: atMs });
      this.t.overrideByNamespace.remove(inNamespace(namespaceId, record.id));
      this.t.overrideWildcards.remove(inNamespace(namespaceId, record.id));
      return true;
    });
  }

  /** Inside a write transaction: a live record is listed, and a pattern is a wildcard candidate. */
  private index(record: RatelimitOverrideRecord): void {
    const key = inNamespace(record.namespaceId, record.id);
    this.t.overrideByNamespace.put(key, record.id);
    if (isPattern(record.identifier)) this.t.overrideWildcards.put(key, record.id);
  }

  private scan(index: LmdbTables['overrideByNamespace'], start: string, end: string, limit: number): RatelimitOverrideRecord[] {
    const out: RatelimitOverrideRecord[] = [];
    for (const { value: id } of index.getRange({ start, end })) {
      const record = this.t.overrides.get(id) as RatelimitOverrideRecord | undefined;
      if (!record || record.deletedAt !== undefined) continue;
      out.push(record);
      if (out.length >= limit) break;
    }
    return out;
  }
}
