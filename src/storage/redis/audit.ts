/**
 * Audit events in Redis and Redis Cluster.
 *
 * An event must commit in the same script call as its change, so it is stored under the hash tag
 * of the record the change commits (one slot): in the hash `audit:{<record's tag>}:events` (field =
 * event id). One script then writes both.
 *
 * Listing needs one time order across all slots, so every event also has an entry in one sorted
 * set, `audit-index:{audit}:ids` (members `<event id>|<tag>`, score 0, read by lex order = time
 * order). That entry is in another slot, so it is written first, as every pointer is (open.ts):
 * a crash between the two leaves an entry whose event is missing, which readers skip and prune
 * removes; an event never exists without its entry. Pruning removes the event, then the entry.
 */
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import { AUDIT_SCAN_BUDGET, auditIdAt, matchesQuery, scanEnd, type AuditEvent, type AuditQuery, type AuditStore } from '../../audit/event.js';
import type { ScanPage } from '../types.js';

/** The hash tag of a storage key (keys.ts: every key has one). */
function tagOf(recordKey: string): string {
  const open = recordKey.indexOf('{');
  const close = recordKey.indexOf('}', open + 1);
  if (open < 0 || close < 0) throw new Error(`no hash tag in ${recordKey}`);
  return recordKey.slice(open + 1, close);
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

  private eventsKey(tag: string): string {
    return `${this.prefix}audit:{${tag}}:events`;
  }

  /** Writes the event's index entry, and says where the change's script stores the event itself. */
  async prepare(recordKey: string, event: AuditEvent): Promise<PreparedEvent> {
    const tag = tagOf(recordKey);
    await this.client.zadd(this.indexKey, 0, `${event.id}|${tag}`);
    return { eventsKey: this.eventsKey(tag), id: event.id, bytes: encode(event) };
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
    const byTag = new Map<string, number[]>();
    members.forEach((member, i) => {
      const tag = tagOfMember(member);
      const at = byTag.get(tag);
      if (at) at.push(i);
      else byTag.set(tag, [i]);
    });
    const out: (AuditEvent | null)[] = new Array<AuditEvent | null>(members.length).fill(null);
    await Promise.all([...byTag].map(async ([tag, positions]) => {
      const values = await this.client.hmgetBuffer(this.eventsKey(tag), ...positions.map((i) => idOf(members[i]!)));
      positions.forEach((i, n) => { out[i] = decode<AuditEvent>(values[n]); });
    }));
    return out;
  }

  async prune(beforeMs: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const members = await this.client.zrangebylex(this.indexKey, '-', `(${auditIdAt(beforeMs)}`, 'LIMIT', 0, 500);
      if (members.length === 0) return removed;
      const byTag = new Map<string, string[]>();
      for (const member of members) {
        const ids = byTag.get(tagOfMember(member)) ?? [];
        ids.push(idOf(member));
        byTag.set(tagOfMember(member), ids);
      }
      // Events first, then their entries: an entry without its event is skipped by readers.
      await Promise.all([...byTag].map(([tag, ids]) => this.client.hdel(this.eventsKey(tag), ...ids)));
      await this.client.zrem(this.indexKey, ...members);
      removed += members.length;
    }
  }
}

const idOf = (member: string): string => member.slice(0, member.indexOf('|'));
const tagOfMember = (member: string): string => member.slice(member.indexOf('|') + 1);
