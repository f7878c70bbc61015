/**
 * Copying a request out of uWS. The HttpRequest object is only valid during the synchronous part
 * of the route callback, and onData chunks are neutered after their callback returns, so both
 * are copied here before anything asynchronous happens.
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { ApiError } from '../errors/api-error.js';
import { newId } from '../util/ids.js';

export interface RequestInfo {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
  readonly authorization: string;
  readonly contentType: string;
  readonly accept: string;
  /** Declared body length, or -1 when absent (chunked). */
  readonly contentLength: number;
  /** Size of all header names and values: uWS takes up to ~0.5 MB, keygate answers 431 far sooner. */
  readonly headerBytes: number;
  readonly startedAt: bigint;
}

export const newRequestId = (): string => newId('req');

export function readRequestInfo(req: HttpRequest): RequestInfo {
  const lengthHeader = req.getHeader('content-length');
  const contentLength = /^\d{1,15}$/.test(lengthHeader) ? Number(lengthHeader) : lengthHeader === '' ? -1 : Number.NaN;
  let headerBytes = 0;
  req.forEach((name, value) => { headerBytes += name.length + value.length; });
  return {
    requestId: newRequestId(),
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    authorization: req.getHeader('authorization'),
    contentType: req.getHeader('content-type'),
    accept: req.getHeader('accept'),
    contentLength,
    headerBytes,
    startedAt: process.hrtime.bigint(),
  };
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
 * Reads the whole body. Rejects with a 413 ApiError as soon as it exceeds `limitBytes`, and with
 * ClientAbortedError if the client goes away first.
 */
export function readBody(res: HttpResponse, state: ConnectionState, limitBytes: number, declaredLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    state.onAbort = () => {
      if (done) return;
      done = true;
      reject(new ClientAbortedError());
    };
    res.onData((chunk, isLast) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > limitBytes) {
        done = true;
        reject(tooLarge(limitBytes));
        return;
      }
      // Copy: uWS reuses the chunk's memory once this callback returns.
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) {
        done = true;
        if (declaredLength >= 0 && size !== declaredLength) {
          reject(new ApiError('err:user:bad_request:request_body_unreadable', 'The request body is shorter than its Content-Length.'));
          return;
        }
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      }
    });
  });
}
