/**
 * Bounds on free-form JSON. A deeply nested document overflows the stack of every recursive
 * consumer (the record encoder, JSON.stringify), and a large `meta` is copied into every answer
 * that describes its key or identity, so both are refused with a 400 before anything runs.
 */
import { ApiError } from '../errors/api-error.js';

/** Objects and arrays nested deeper than this, anywhere in a request body, are refused. */
export const MAX_JSON_DEPTH = 32;
/** `meta` (of a key or an identity) as JSON, in bytes of UTF-8. */
export const MAX_META_BYTES = 64 * 1024;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** How deeply objects and arrays nest in JSON text (strings skipped), stopping past `limit`. */
export function jsonDepth(body: Buffer, limit: number): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === QUOTE) {
      for (i++; i < body.length && body[i] !== QUOTE; i++) if (body[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

/**
 * Throws the 400 for a body nested deeper than MAX_JSON_DEPTH. Valid JSON that deep takes two
 * bytes a level, so shorter bodies (every usual verifyKey) are not scanned.
 */
export function assertJsonDepth(body: Buffer): void {
  if (body.length <= 2 * MAX_JSON_DEPTH) return;
  if (jsonDepth(body, MAX_JSON_DEPTH) <= MAX_JSON_DEPTH) return;
  throw new ApiError('err:unkey:application:invalid_input', `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays.`, {
    issues: [{ location: 'body', message: `body must nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`, fix: 'Flatten the nested values, e.g. in meta.' }],
  });
}

/** Throws the 400 for a `meta` larger than MAX_META_BYTES as JSON; `field` names it in the issue. */
export function assertMetaSize(meta: unknown, field: string): void {
  if (meta === undefined || meta === null) return;
  const bytes = Buffer.byteLength(JSON.stringify(meta));
  if (bytes <= MAX_META_BYTES) return;
  throw new ApiError('err:unkey:application:invalid_input', `${field} is too large: at most ${MAX_META_BYTES} bytes as JSON.`, {
    issues: [{ location: 'body', message: `${field} must be at most ${MAX_META_BYTES} bytes as JSON (got ${bytes})`, fix: 'Keep large data in your own store and put its id in meta.' }],
    alwaysJson: true,
  });
}
