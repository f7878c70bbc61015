/**
 * Rate-limit overrides in Redis: record hash `override:{<id>}:rec`; identifier index
 * `override-ident:{<limit tag of the identifier>}:<namespace, identifier>:id` (deleted overrides keep their entry, so
 * set revives them with their id; findExact is one index read); and two listings in the
 * namespace's slot, `override-ns:{<ns>}:live` (live overrides) and `override-ns:{<ns>}:wildcards`
 * (live patterns only, so wildcards() costs the number of patterns, not of overrides).
 *
 * Crash ordering (open.ts): listings are supersets of the live overrides. set adds the listing
 * entries before the record becomes live (commit) and again after (a delete racing it may have
 * removed them in between); delete marks the record deleted (commit), removes the entries, then
 * reads the record again and puts them back if a set revived it meanwhile. Readers skip entries
 * whose record is missing, deleted or of another namespace.
 */
import type { RedisClient } from '../../redis/client.js';
import type { AuditEvent } from '../../audit/event.js';
import { withOverrideId } from '../../audit/targets.js';
import type { RatelimitOverrideRecord } from '../records.js';
import type { ListOptions, OverrideStore, OverrideValues } from '../types.js';
import type { StorageKeys } from './keys.js';
import { listIds } from './listing.js';
import type { RecordIo } from './record-io.js';
import { getOrInsert, type UniqueIndex } from './unique-index.js';

const isPattern = (identifier: string): boolean => identifier.includes('*');
const isLive = (namespaceId: string) => (r: RatelimitOverrideRecord): boolean => r.namespaceId === namespaceId && r.deletedAt === undefined;

export class RedisOverrideStore implements OverrideStore {
  constructor(
    private readonly client: RedisClient,
    private readonly k: StorageKeys,
    private readonly io: RecordIo,
    private readonly index: UniqueIndex,
  ) {}

  /** The override the index names for this pair, live or deleted, if its record agrees. */
  private async byIdentifier(namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null> {
    const holder = await this.index.holder(this.k.overrideByIdentifier(namespaceId, identifier));
    if (holder === null) return null;
    const record = await this.get(holder);
    return record && record.namespaceId === namespaceId && record.identifier === identifier ? record : null;
  }

  private async addToListings(record: { id: string; namespaceId: string; identifier: string }): Promise<void> {
    await this.client.zadd(this.k.overridesOf(record.namespaceId), 0, record.id);
    if (isPattern(record.identifier)) await this.client.zadd(this.k.wildcardsOf(record.namespaceId), 0, record.id);
  }

  async set(values: OverrideValues, atMs: number, newId: string, event?: AuditEvent): Promise<RatelimitOverrideRecord> {
    const { namespaceId, identifier } = values;
    // One record per pair: the first caller stores a new one; everyone (that caller included,
    // if another set got there first) then updates the one the index names.
    const made: { record?: RatelimitOverrideRecord } = {};
    const existing = await getOrInsert(this.index, this.k.overrideByIdentifier(namespaceId, identifier),
      () => this.byIdentifier(namespaceId, identifier),
      async (holder) => {
        const record = await this.get(holder);
        return record?.namespaceId === namespaceId && record.identifier === identifier;
      },
      () => ({
        id: newId, workspaceId: values.workspaceId, namespaceId, identifier,
        limit: values.limit, duration: values.duration, createdAt: atMs,
      }),
      async (record) => {
        made.record = record;
        await this.addToListings(record);
        await this.io.write(this.k.override(record.id), '*', record, [], withOverrideId(event, record.id));
      });
    if (made.record) return made.record;
    await this.addToListings(existing);
    const stored = await this.io.update<RatelimitOverrideRecord, RatelimitOverrideRecord>(this.k.override(existing.id), (current) => {
      const base: RatelimitOverrideRecord = current?.record ?? existing;
      const { deletedAt: _revived, ...rest } = base;
      const next: RatelimitOverrideRecord = { ...rest, limit: values.limit, duration: values.duration, updatedAt: atMs };
      return { result: next, write: next };
    }, withOverrideId(event, existing.id));
    await this.addToListings(stored);
    return stored;
  }

  async get(id: string): Promise<RatelimitOverrideRecord | null> {
    return this.io.get<RatelimitOverrideRecord>(this.k.override(id));
  }

  async findExact(namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null> {
    const record = await this.byIdentifier(namespaceId, identifier);
    return record && record.deletedAt === undefined ? record : null;
  }

  async wildcards(namespaceId: string): Promise<RatelimitOverrideRecord[]> {
    return this.listLive(this.k.wildcardsOf(namespaceId), namespaceId, { limit: Number.POSITIVE_INFINITY });
  }

  async list(namespaceId: string, options: ListOptions): Promise<RatelimitOverrideRecord[]> {
    return this.listLive(this.k.overridesOf(namespaceId), namespaceId, options);
  }

  private listLive(setKey: string, namespaceId: string, options: ListOptions): Promise<RatelimitOverrideRecord[]> {
    return listIds(this.client, setKey, options,
      (ids) => this.io.getMany<RatelimitOverrideRecord>(ids.map((id) => this.k.override(id))), isLive(namespaceId));
  }

  async delete(namespaceId: string, identifier: string, atMs: number, event?: AuditEvent): Promise<boolean> {
    const found = await this.byIdentifier(namespaceId, identifier);
    if (!found) return false;
    const deleted = await this.io.update<RatelimitOverrideRecord, boolean>(this.k.override(found.id), (current) => (
      current && current.record.deletedAt === undefined
        ? { result: true, write: { ...current.record, deletedAt: atMs } }
        : { result: false }), withOverrideId(event, found.id));
    if (!deleted) return false;
    await this.client.zrem(this.k.overridesOf(namespaceId), found.id);
    await this.client.zrem(this.k.wildcardsOf(namespaceId), found.id);
    const after = await this.get(found.id);
    if (after && after.deletedAt === undefined) await this.addToListings(after);
    return true;
  }
}
