/**
 * Reply: what the pipeline hands to the transport. Error bodies are built only here, from the
 * catalogue, so every error has the same envelope.
 */
import { ApiError, ServiceUnavailableError, isApiError } from '../errors/api-error.js';
import { SERVICE_UNAVAILABLE_DETAIL, codeInfo, type ErrorCode } from '../errors/codes.js';
import type { Page } from '../shapes/page.js';
import { ByteWriter, hasJsonBytes, JSON_BYTES, utf8, type HasJsonBytes } from '../util/json-bytes.js';

/** A body written as bytes at the moment it is sent (util/json-bytes.ts). */
export interface BytesBody {
  write(out: ByteWriter): void;
}

export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string | BytesBody;
  readonly headers?: Readonly<Record<string, string>>;
  /** Close the connection after this reply (e.g. a body that was not read to the end). */
  readonly close?: boolean;
}

const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

/** A reply whose body is text (error and list answers, which tests and the dashboard read as text). */
export type TextReply = Reply & { readonly body: string };

const META_OPEN = utf8('{"meta":{"requestId":"');
const DATA_OPEN = utf8('"},"data":');

/** The envelope around data that writes its own bytes (verifyKey's answer). */
class BytesEnvelope implements BytesBody {
  constructor(private readonly requestId: string, private readonly data: HasJsonBytes) {}

  write(out: ByteWriter): void {
    out.bytes(META_OPEN);
    out.ascii(this.requestId);
    out.bytes(DATA_OPEN);
    this.data[JSON_BYTES](out);
    out.byte(125); // '}'
  }
}

const writer = new ByteWriter();

/** A body as uWS's `end` takes it; bytes are written now into one shared buffer, valid until the next call. */
export function sendableBody(body: string | BytesBody): string | Uint8Array {
  if (typeof body === 'string') return body;
  body.write(writer.reset());
  return writer.written();
}

export function dataReply(requestId: string, data: unknown): Reply {
  // Request ids are base58 (util/ids.ts), so they are spliced in as they are: no envelope object
  // is built and stringified on every verifyKey.
  if (hasJsonBytes(data)) return { status: 200, contentType: JSON_TYPE, body: new BytesEnvelope(requestId, data) };
  const body = data === undefined
    ? `{"meta":{"requestId":"${requestId}"}}`
    : `{"meta":{"requestId":"${requestId}"},"data":${JSON.stringify(data)}}`;
  return { status: 200, contentType: JSON_TYPE, body };
}

/** A list procedure's page: `data` is the array, `pagination` sits beside it at the top level. */
export function pageReply(requestId: string, page: Page<unknown>): Reply {
  const body = JSON.stringify({ meta: { requestId }, data: page.data, pagination: page.pagination });
  return { status: 200, contentType: JSON_TYPE, body };
}

/** Unkey answers problem+json only to clients that accept it; the SDK asks for plain JSON. */
function errorContentType(accept: string): string {
  return /application\/problem\+json|application\/\*|\*\/\*/.test(accept) ? PROBLEM_TYPE : JSON_TYPE;
}

export function errorReply(requestId: string, accept: string, docsUrl: string, err: ApiError, close = false): TextReply {
  const info = codeInfo(err.code);
  const error: Record<string, unknown> = {
    title: info.title,
    detail: err.detail,
    status: info.status,
    type: `${docsUrl}/errors/${info.path}`,
  };
  if (info.status === 400 || info.status === 413) error.errors = err.issues;
  return {
    status: info.status,
    contentType: err.alwaysJson ? JSON_TYPE : errorContentType(accept),
    body: JSON.stringify({ meta: { requestId }, error }),
    headers: err.headers,
    close,
  };
}

/** Anything thrown: ApiErrors keep their code; unavailable backends → 503; the rest → 500. */
export function toApiError(err: unknown): ApiError {
  if (isApiError(err)) return err;
  if (err instanceof ServiceUnavailableError) return new ApiError('err:svc:application:service_unavailable', SERVICE_UNAVAILABLE_DETAIL);
  return new ApiError('err:unkey:application:unexpected_error', 'An unexpected error occurred. Quote the requestId when reporting it.');
}

export const isFault = (code: ErrorCode): boolean => codeInfo(code).status >= 500;
