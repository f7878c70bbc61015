/** Dashboard session helpers; the sessions themselves live in the storage (src/storage/sessions.ts). */
import { timingSafeEqual } from 'node:crypto';

export { MAX_SESSIONS_PER_ROOT_KEY, SESSION_TTL_MS, type Session, type SessionStore } from '../storage/sessions.js';

/** Constant-time comparison of two tokens (their lengths are not secret). */
export function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
