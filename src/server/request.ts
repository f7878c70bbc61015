/**
 * Copying a request out of uWS. The HttpRequest object is only valid during the synchronous part
 * of the route callback, and onData chunks are neutered after their callback returns, so both
 * are copied here before anything asynchronous happens.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { ApiError } from '../errors/api-error.js';
import { newId } from '../util/ids.js';
import { CSRF_HEADER, type SessionCredentials } from '../auth/session.js';

export interface RequestInfo {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  /** Dashboard cookie and CSRF token (src/auth/session.ts); read only when `authorization` is empty. */
  readonly session: SessionCredentials | null;
  readonly contentType: string;
  readonly accept: string;
  /** Declared body length, or -1 when absent (chunked). */
  readonly contentLength: number;
  /** Size of all header names and values: uWS takes up to ~0.5 MB, keygate answers 431 far sooner. */
  readonly headerBytes: number;
  /** performance.now() when the request line was read (durations for logs and /metrics). */
  readonly startedAt: number;
}

export const newRequestId = (): string => newId('req');

/**
 * The headers keygate reads, gathered in one pass over all of them (that pass is needed anyway for
 * the 431 bound): one crossing into uWS per header instead of one more per header read. Module
 * state, reset per request: uWS calls back synchronously, and a callback made once allocates
 * nothing per request. The first of repeated headers wins, as with getHeader.
 */
const seen = { bytes: 0, authorization: '', contentLength: '', contentType: '', accept: '', cookie: '', csrf: '', found: 0 };
const AUTHORIZATION = 1;
const CONTENT_LENGTH = 2;
const CONTENT_TYPE = 4;
const ACCEPT = 8;
const COOKIE = 16;
const CSRF = 32;

function onHeader(name: string, value: string): void {
  seen.bytes += name.length + value.length;
  // uWS gives names in lower case; the length picks the one candidate to compare.
  switch (name.length) {
    case 13: if (name === 'authorization' && (seen.found & AUTHORIZATION) === 0) { seen.authorization = value; seen.found |= AUTHORIZATION; } break;
    case 14: if (name === 'content-length' && (seen.found & CONTENT_LENGTH) === 0) { seen.contentLength = value; seen.found |= CONTENT_LENGTH; } break;
    case 12: if (name === 'content-type' && (seen.found & CONTENT_TYPE) === 0) { seen.contentType = value; seen.found |= CONTENT_TYPE; } break;
    case 6:
      if (name === 'accept' && (seen.found & ACCEPT) === 0) { seen.accept = value; seen.found |= ACCEPT; }
      else if (name === 'cookie' && (seen.found & COOKIE) === 0) { seen.cookie = value; seen.found |= COOKIE; }
      break;
  }
  if (name.length === CSRF_HEADER.length && name === CSRF_HEADER && (seen.found & CSRF) === 0) { seen.csrf = value; seen.found |= CSRF; }
}

/** A declared Content-Length: -1 when absent (chunked), NaN when not 1 to 15 digits. */
function parseContentLength(text: string): number {
  if (text.length === 0) return -1;
  if (text.length > 15) return Number.NaN;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    n = n * 10 + digit;
  }
  return n;
}

/** What a static route already knows of its requests, so they need not be read from uWS. */
export interface KnownRoute {
  readonly method: string;
  readonly path: string;
}

/** `route`: the static route the request matched (its path is the request's: uWS matches exactly). */
export function readRequestInfo(req: HttpRequest, route?: KnownRoute): RequestInfo {
  seen.bytes = 0;
  seen.found = 0;
  seen.authorization = seen.contentLength = seen.contentType = seen.accept = seen.cookie = seen.csrf = '';
  req.forEach(onHeader);
  const { authorization } = seen;
  const info: RequestInfo = {
    requestId: newRequestId(),
    // As sent (methods are case-sensitive) where only the catch-all route, which names it in its
    // 405, reads it; a procedure's route gives its own.
    method: route === undefined ? req.getCaseSensitiveMethod() : route.method,
    path: route === undefined ? req.getUrl() : route.path,
    authorization,
    // Only without Authorization, and only with the CSRF header: bearer calls never read the cookie.
    session: authorization === '' && seen.csrf !== '' ? { cookie: seen.cookie, csrf: seen.csrf } : null,
    contentType: seen.contentType,
    accept: seen.accept,
    contentLength: parseContentLength(seen.contentLength),
    headerBytes: seen.bytes,
    startedAt: performance.now(),
  };
  // Not kept past the request: the module's state must not hold a caller's credentials.
  seen.authorization = seen.cookie = seen.csrf = '';
  return info;
}

/** Set once the client has gone away; the response must not be touched afterwards. */
export interface ConnectionState {
  aborted: boolean;
  /** Called on abort, so a pending body read settles instead of waiting forever. */
  onAbort?: () => void;
}

/** The client went away before the body was complete; nothing is answered. */
export class ClientAbortedError extends Error {
  constructor() {
    super('client closed the connection');
    this.name = 'ClientAbortedError';
  }
}

/** Largest total of header names and values keygate reads. */
export const HEADER_LIMIT_BYTES = 16 * 1024;

export function headersTooLarge(): ApiError {
  return new ApiError('err:user:bad_request:request_header_fields_too_large', `The request headers exceed ${HEADER_LIMIT_BYTES} bytes in all.`);
}

export function tooLarge(limitBytes: number): ApiError {
  return new ApiError('err:user:bad_request:request_body_too_large', `The request body exceeds the limit of ${limitBytes} bytes.`, {
    issues: [{ location: 'body', message: `request body must be at most ${limitBytes} bytes`, fix: 'Send a smaller body.' }],
  });
}

/**
 * Reads the whole body, then calls `done` once: with the body, with a 413 ApiError as soon as it
 * exceeds `limitBytes`, with a 400 when it is shorter than declared, or with ClientAbortedError if
 * the client goes away first. A callback, not a promise: it runs on every request, and a promise
 * and its continuations would add their allocations and turns to every verifyKey.
 *
 * `lend`: a body that arrives in one chunk is handed over as a view of uWS's memory, not a copy,
 * valid only until `done` returns (uWS detaches it then, so a late read sees an empty buffer). For
 * callers that are done with the bytes before returning, as the procedures' JSON parse is.
 */
export function readBody(res: HttpResponse, state: ConnectionState, limitBytes: number, declaredLength: number,
  done: (err: unknown, body: Buffer | null) => void, lend = false): void {
  let chunks: Buffer[] | null = null;
  let size = 0;
  let settled = false;
  state.onAbort = () => {
    if (settled) return;
    settled = true;
    done(new ClientAbortedError(), null);
  };
  res.onData((chunk, isLast) => {
    if (settled) return;
    size += chunk.byteLength;
    if (size > limitBytes) {
      settled = true;
      done(tooLarge(limitBytes), null);
      return;
    }
    if (!isLast) {
      // Copied: uWS reuses the chunk's memory once this callback returns.
      (chunks ??= []).push(Buffer.from(new Uint8Array(chunk)));
      return;
    }
    settled = true;
    if (declaredLength >= 0 && size !== declaredLength) {
      done(new ApiError('err:user:bad_request:request_body_unreadable', 'The request body is shorter than its Content-Length.'), null);
      return;
    }
    if (chunks === null) done(null, lend ? Buffer.from(chunk) : Buffer.from(new Uint8Array(chunk)));
    else {
      // concat copies the last chunk too, so it need not be copied first.
      chunks.push(Buffer.from(chunk));
      done(null, Buffer.concat(chunks, size));
    }
  });
}
