/**
 * Audit events in LMDB: one database, keyed by event id (time first, so key order is time order).
 * Stores append an event with noteAudit inside the write transaction of the change it describes,
 * so both commit together or neither does.
 */
import type { Database } from 'lmdb';
import { AUDIT_SCAN_BUDGET, matchesQuery, scanEnd, scanStart, type AuditEvent, type AuditQuery, type AuditStore } from '../../audit/event.js';
import type { ScanPage } from '../types.js';

/** Inside a write transaction: stores `event` when there is one. */
export function noteAudit(audit: Database, event: AuditEvent | undefined): void {
  if (event !== undefined) audit.put(event.id, event);
}

/** Removed per transaction by prune, so a large backlog never makes one long write. */
const PRUNE_BATCH = 1_000;

export class LmdbAuditStore implements AuditStore {
  constructor(private readonly root: { transaction<T>(action: () => T): Promise<T> }, private readonly audit: Database) {}

  async list(query: AuditQuery): Promise<ScanPage<AuditEvent>> {
    const items: AuditEvent[] = [];
    let examined = 0;
    for (const { key, value } of this.audit.getRange({ start: scanStart(query), end: scanEnd(query), reverse: true })) {
      if (items.length >= query.limit || examined >= AUDIT_SCAN_BUDGET) return { items, cursor: key as string };
      examined++;
      const event = value as AuditEvent;
      if (matchesQuery(event, query)) items.push(event);
    }
    return { items, cursor: null };
  }

  async prune(beforeMs: number): Promise<number> {
    const end = scanEnd({ fromMs: beforeMs, limit: 0 });
    let removed = 0;
    for (;;) {
      const keys = [...this.audit.getKeys({ start: 'evt_', end, limit: PRUNE_BATCH })];
      if (keys.length === 0) return removed;
      await this.root.transaction(() => { for (const key of keys) this.audit.remove(key); });
      removed += keys.length;
    }
  }
}
