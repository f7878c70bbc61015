/**
 * Event ids: the time first (base 36, fixed width), then a count within the millisecond, then
 * random characters, so key order is time order and, within one process, the order of creation.
 */
import { newId } from '../util/ids.js';
import { auditIdAt, type AuditEvent } from './event.js';

/** Base 58 digits in ascending byte order, so the count sorts as text. */
const DIGITS = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
let lastMs = -1;
let sequence = 0;

function countWithin(timeMs: number): string {
  sequence = timeMs === lastMs ? (sequence + 1) % (58 ** 3) : 0;
  lastMs = timeMs;
  return DIGITS[Math.floor(sequence / 3364)]! + DIGITS[Math.floor(sequence / 58) % 58]! + DIGITS[sequence % 58]!;
}

/** The time, the count within its millisecond, and 14 random base58 characters. */
export const newAuditId = (timeMs: number): string => auditIdAt(timeMs) + countWithin(Math.floor(timeMs)) + newId('req').slice(7);

/**
 * The event of a new key taken back at once because a permission or role it named was deleted
 * meanwhile (Redis checks after the insert): the same call, so one more event for it.
 */
export function withdrawn(event: AuditEvent, nowMs = Date.now()): AuditEvent {
  const time = Math.max(nowMs, event.time);
  return { ...event, id: newAuditId(time), time, summary: `${event.summary}, withdrawn: a permission or role it named was deleted meanwhile` };
}
