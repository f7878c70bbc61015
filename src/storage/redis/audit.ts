/**
 * Audit events in Redis and Redis Cluster.
 *
 * An event must commit in the same script call as its change, so it is stored in the change's
 * slot: in the hash `audit:{<slot tag>}:events` (field = event id), where the slot tag is a short
 * tag chosen to hash to the slot of the record the change commits (slotTag below). One script
 * then writes both (the keys differ, the slot is the same, which Cluster allows).
 *
 * Listing needs one time order across all slots, so every event also has an entry in one sorted
 * set, `audit-index:{audit}:ids` (members `<event id>|<slot>`, score 0, read by lex order = time
 * order). That entry is in another slot, so it is written first, as every pointer is (open.ts):
 * a crash between the two leaves an entry whose event is missing, which readers skip and prune
 * removes; an event never exists without its entry. Pruning removes the event, then the entry.
 */
import calculateSlot from 'cluster-key-slot';
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import { AUDIT_SCAN_BUDGET, auditIdAt, matchesQuery, scanEnd, type AuditEvent, type AuditQuery, type AuditStore } from '../../audit/event.js';
import type { ScanPage } from '../types.js';

const SLOTS = 16_384;
let slotTags: string[] | undefined;

/** A tag that hashes to `slot`: the first base-36 number that does, found once for all slots. */
export function slotTag(slot: number): string {
  if (slotTags === undefined) {
    const tags: string[] = new Array<string>(SLOTS);
    let found = 0;
    for (let n = 0; found < SLOTS; n++) {
      const tag = n.toString(36);
      const at = calculateSlot(tag);
      if (tags[at] === undefined) {
        tags[at] = tag;
        found++;
      }
    }
    slotTags = tags;
  }
  return slotTags[slot]!;
}

/** What a script needs to store an event beside a change: its key, field and bytes. */
export interface PreparedEvent {
  readonly eventsKey: string;
  readonly id: string;
  readonly bytes: Buffer;
}

export class RedisAuditLog implements AuditStore {
  readonly indexKey: string;

  constructor(private readonly client: RedisClient, private readonly prefix: string) {
    this.indexKey = `${prefix}audit-index:{audit}:ids`;
  }

  private eventsKey(slot: number): string {
    return `${this.prefix}audit:{${slotTag(slot)}}:events`;
  }

  /** Writes the event's index entry, and says where the change's script stores the event itself. */
  async prepare(recordKey: string, event: AuditEvent): Promise<PreparedEvent> {
    const slot = calculateSlot(recordKey);
    await this.client.zadd(this.indexKey, 0, `${event.id}|${slot}`);
    return { eventsKey: this.eventsKey(slot), id: event.id, bytes: encode(event) };
  }

  /** An event whose call changed nothing (the change was there already): stored on its own. */
  async appendAlone(recordKey: string, event: AuditEvent): Promise<void> {
    const prepared = await this.prepare(recordKey, event);
    await this.client.hset(prepared.eventsKey, prepared.id, prepared.bytes);
  }

  async list(query: AuditQuery): Promise<ScanPage<AuditEvent>> {
    const items: AuditEvent[] = [];
    const upper = query.toMs === undefined ? 'evt_~' : auditIdAt(query.toMs);
    let max = query.cursor !== undefined && query.cursor < upper ? `[${query.cursor}|~` : `(${upper}`;
    const min = `[${scanEnd(query)}`;
    let examined = 0;
    const page = Math.min(Math.max(query.limit + 1, 50), 500);
    for (;;) {
      const members = await this.client.zrevrangebylex(this.indexKey, max, min, 'LIMIT', 0, page);
      const events = await this.read(members);
      for (let i = 0; i < members.length; i++) {
        if (items.length >= query.limit || examined >= AUDIT_SCAN_BUDGET) return { items, cursor: idOf(members[i]!) };
        examined++;
        const event = events[i];
        if (event && matchesQuery(event, query)) items.push(event);
      }
      if (members.length < page) return { items, cursor: null };
      max = `(${members[members.length - 1]!}`;
    }
  }

  /** The events the index members name, in their order; null where one is missing. */
  private async read(members: readonly string[]): Promise<(AuditEvent | null)[]> {
    const bySlot = new Map<number, number[]>();
    members.forEach((member, i) => {
      const slot = slotOf(member);
      const at = bySlot.get(slot);
      if (at) at.push(i);
      else bySlot.set(slot, [i]);
    });
    const out: (AuditEvent | null)[] = new Array<AuditEvent | null>(members.length).fill(null);
    await Promise.all([...bySlot].map(async ([slot, positions]) => {
      const values = await this.client.hmgetBuffer(this.eventsKey(slot), ...positions.map((i) => idOf(members[i]!)));
      positions.forEach((i, n) => { out[i] = decode<AuditEvent>(values[n]); });
    }));
    return out;
  }

  async prune(beforeMs: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const members = await this.client.zrangebylex(this.indexKey, '-', `(${auditIdAt(beforeMs)}`, 'LIMIT', 0, 500);
      if (members.length === 0) return removed;
      const bySlot = new Map<number, string[]>();
      for (const member of members) {
        const ids = bySlot.get(slotOf(member)) ?? [];
        ids.push(idOf(member));
        bySlot.set(slotOf(member), ids);
      }
      // Events first, then their entries: an entry without its event is skipped by readers.
      await Promise.all([...bySlot].map(([slot, ids]) => this.client.hdel(this.eventsKey(slot), ...ids)));
      await this.client.zrem(this.indexKey, ...members);
      removed += members.length;
    }
  }
}

const idOf = (member: string): string => member.slice(0, member.indexOf('|'));
const slotOf = (member: string): number => Number(member.slice(member.indexOf('|') + 1));
