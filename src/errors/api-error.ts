/**
 * ApiError: a request fault with a catalogued code and a detail written for the caller.
 * Outcomes (a denied verification, a rate-limited call) are never ApiErrors: they are 200 data.
 * Anything thrown that is not an ApiError becomes a 500 whose message stays in the logs.
 */
import type { ErrorCode } from './codes.js';

export interface ValidationIssue {
  /** JSON-Schema keyword location (Unkey's convention), or a request part such as `body`. */
  readonly location: string;
  readonly message: string;
  readonly fix?: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly issues: readonly ValidationIssue[];
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Readonly<Record<string, string>>;
  /** Answer as application/json whatever the Accept header says (Unkey does so for schema errors). */
  readonly alwaysJson: boolean;

  constructor(
    code: ErrorCode,
    detail: string,
    options: { issues?: readonly ValidationIssue[]; headers?: Record<string, string>; internal?: string; alwaysJson?: boolean } = {},
  ) {
    super(options.internal ?? detail);
    this.name = 'ApiError';
    this.code = code;
    this.detail = detail;
    this.issues = options.issues ?? [];
    this.headers = options.headers ?? {};
    this.alwaysJson = options.alwaysJson ?? false;
  }
}

export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

/** Thrown by storage backends when a platform component cannot answer; maps to the 503 (service_unavailable). */
export class ServiceUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ServiceUnavailableError';
  }
}
