/**
 * Audit events: one per state-changing procedure call, CLI command or start-up change, stored by
 * the backend in the same atomic write as the change it describes (docs/audit-log.md).
 *
 * The rule for procedures that write more than once: the event rides on the write that commits
 * the procedure's own change (the key record of keys.createKey, the role of setRolePermissions).
 * Records made on the way to it (an identity or permissions created for a new key, namespaces for
 * an override) are named in its targets and committed before it; follow-up writes (a key's credits
 * after updateKey's record change, the old key's expiry after rerollKey) come after it. So a crash
 * leaves either the event with the procedure's own change, or neither.
 *
 * Events never hold a key, root key or session secret: ids, names and a digest of the session.
 */
import type { ScanPage } from '../storage/types.js';

export type AuditActorType = 'root_key' | 'cli' | 'bootstrap';

export interface AuditActor {
  readonly type: AuditActorType;
  /** The root key's id (root_key only). */
  readonly id?: string;
  readonly name?: string;
}

export type AuditTargetType = 'api' | 'key' | 'identity' | 'namespace' | 'override' | 'permission' | 'role' | 'root_key' | 'migration';

export interface AuditTarget {
  readonly type: AuditTargetType;
  readonly id: string;
  readonly name?: string;
}

export interface AuditEvent {
  /** `evt_<time in base 36, 9 digits><random>`: ids sort by time. */
  readonly id: string;
  readonly time: number;
  readonly workspaceId: string;
  readonly actor: AuditActor;
  /** The dashboard session the call came through: a digest of it, never the session id. */
  readonly session?: string;
  /** The procedure's wire name, or the CLI command (`cli:root-key create`). */
  readonly procedure: string;
  readonly targets: readonly AuditTarget[];
  readonly requestId?: string;
  readonly clientAddress?: string;
  /** One line for people. */
  readonly summary: string;
  /** What the call asked to change (its request fields, secrets and hashes left out). */
  readonly changes?: Readonly<Record<string, unknown>>;
}

/** Which events AuditStore.list returns, newest first. */
export interface AuditQuery {
  /** Inclusive lower bound on the time, unix ms. */
  readonly fromMs?: number;
  /** Exclusive upper bound. */
  readonly toMs?: number;
  /** A root key id, or `cli` / `bootstrap`. */
  readonly actor?: string;
  /** Any of the event's targets has this id. */
  readonly targetId?: string;
  readonly procedure?: string;
  /** The id of the first event to return (the previous page's `cursor`), inclusive. */
  readonly cursor?: string;
  readonly limit: number;
}

/**
 * The audit log of a backend. The events themselves are written by the stores' write methods,
 * each inside the write it describes (their optional `event` argument).
 */
export interface AuditStore {
  /**
   * Events matching `query`, newest first, at most `limit`. `cursor` continues the scan (the id
   * of the next matching candidate), null when nothing older matches. A page may hold fewer than
   * `limit` events with a cursor when AUDIT_SCAN_BUDGET events were examined.
   */
  list(query: AuditQuery): Promise<ScanPage<AuditEvent>>;
  /** Removes every event older than `beforeMs`; resolves how many were removed. */
  prune(beforeMs: number): Promise<number>;
}

/** Events one list call examines at most, so a rare filter never reads the whole log at once. */
export const AUDIT_SCAN_BUDGET = 5_000;

const TIME_DIGITS = 9;
/** The prefix of every event id at this time: ids of later times sort after it. */
export const auditIdAt = (timeMs: number): string => `evt_${Math.max(0, Math.floor(timeMs)).toString(36).padStart(TIME_DIGITS, '0')}`;
export const AUDIT_ID = /^evt_[0-9a-z]{9}[1-9A-HJ-NP-Za-km-z]{1,32}$/;

export function matchesQuery(event: AuditEvent, query: AuditQuery): boolean {
  if (query.fromMs !== undefined && event.time < query.fromMs) return false;
  if (query.toMs !== undefined && event.time >= query.toMs) return false;
  if (query.procedure !== undefined && event.procedure !== query.procedure) return false;
  if (query.actor !== undefined && event.actor.id !== query.actor && (event.actor.type === 'root_key' || event.actor.type !== query.actor)) return false;
  if (query.targetId !== undefined && !event.targets.some((t) => t.id === query.targetId)) return false;
  return true;
}

/** The greatest id a newest-first scan of `query` starts at (inclusive); ids are below `~`. */
export function scanStart(query: AuditQuery): string {
  const upper = query.toMs === undefined ? 'evt_~' : auditIdAt(query.toMs);
  if (query.cursor === undefined) return upper;
  return query.cursor < upper ? query.cursor : upper;
}

/** The least id a scan reads (inclusive). */
export const scanEnd = (query: AuditQuery): string => (query.fromMs === undefined ? 'evt_' : auditIdAt(query.fromMs));

