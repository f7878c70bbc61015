/** Event ids: the time first (base 36, fixed width), so the natural key order is time order. */
import { newId } from '../util/ids.js';
import { auditIdAt, type AuditEvent } from './event.js';

/** The random part of a request id (17 base58 characters) after the time. */
export const newAuditId = (timeMs: number): string => auditIdAt(timeMs) + newId('req').slice(4);

/**
 * The event of a new key taken back at once because a permission or role it named was deleted
 * meanwhile (Redis checks after the insert): the same call, so one more event for it.
 */
export function withdrawn(event: AuditEvent, nowMs = Date.now()): AuditEvent {
  return { ...event, id: newAuditId(Math.max(nowMs, event.time)), time: Math.max(nowMs, event.time), summary: `${event.summary}, withdrawn: a permission or role it named was deleted meanwhile` };
}
