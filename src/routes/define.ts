/**
 * A procedure is a small declared object: its wire name, its request schema (compiled once at
 * start-up by validation/validators.ts), its response schema (published by src/openapi/) and its
 * handler. The server knows nothing else about it.
 */
import type { JSONSchema } from 'json-schema-to-ts';
import type { Principal } from '../auth/permissions.js';
import type { Page } from '../shapes/page.js';
import type { ShapeOf } from '../shapes/shape-of.js';
import type { Logger } from '../obs/log.js';
import type { Services } from '../wiring/services.js';
import type { AuditDetails } from '../audit/context.js';
import type { AuditEvent } from '../audit/event.js';

/**
 * The input a request schema admits, as the handler sees it: derived from the schema, so the two
 * cannot drift; properties with a `default` are present (ajv fills them in before the handler runs).
 */
export type RequestOf<S extends JSONSchema> = ShapeOf<S>;

export interface RouteContext<I> {
  /** The request body, validated, with schema defaults applied. */
  readonly input: I;
  readonly principal: Principal;
  readonly services: Services;
  readonly requestId: string;
  readonly log: Logger;
  /**
   * The audit event of this call (src/audit/event.ts): caller, request id, client address and
   * session from the transport, targets and summary from the route. Handed to the store write
   * that commits the change; only procedures declared `audited` are given a client address.
   */
  audit(details: AuditDetails): AuditEvent;
}

export interface Route<I = unknown, O = unknown> {
  /** Wire name `<namespace>.<procedure>`, served at POST /v2/<name>. */
  readonly name: string;
  /** JSON Schema of the request body. */
  readonly requestSchema: Readonly<Record<string, unknown>>;
  /** Checks a JSON Schema cannot state (e.g. the size of free-form JSON); throws a 400 ApiError. */
  readonly checkInput?: (input: I) => void;
  /**
   * The input of the procedure's most common body, read from its text without JSON.parse and the
   * validator, or undefined to parse and validate it as usual. It must accept only bodies that
   * parse to exactly that input and that the request schema and checkInput accept.
   */
  readonly quickInput?: (text: string) => I | undefined;
  /**
   * JSON Schema of the success answer's `data`: for list procedures, of ONE item of the `data`
   * array (the envelope, with `pagination`, is the same for every list and is added by
   * src/openapi/). `null` for procedures whose success body has no `data` (deleteIdentity).
   * A shared shape of shapes/responses.ts, or the procedure's own in its `response.ts`.
   * Every registered route has one (test/openapi/ refuses a route without, and checks it against
   * real answers); optional in the type only so a route can be written before its answer is.
   */
  readonly responseSchema?: Readonly<Record<string, unknown>> | null;
  /**
   * Resolves to the response `data`, or to `undefined` for procedures whose success body has no
   * `data` (Unkey's deleteIdentity). Throws ApiError for request faults. A handler that can answer
   * without I/O may return the data itself: the answer then goes out in the same turn.
   */
  handle(ctx: RouteContext<I>): Promise<O> | O;
  /**
   * Sees every answer's data before it is sent (verifyKey counts its outcomes for /metrics): in the
   * pipeline's own step, where a `.then` in the handler would add a promise to every call.
   */
  readonly answered?: (data: O, services: Services) => void;
  /**
   * List procedures (Unkey's listKeys, listIdentities, …): the handler resolves to a `Page`, and
   * the pipeline sends `{meta, data: page.data, pagination: page.pagination}` instead of wrapping
   * the whole value in `data`. Set by defineListRoute, never by hand.
   */
  readonly list?: true;
  /**
   * The procedure changes state and records one audit event per call (src/audit/event.ts); the
   * transport then reads the client's address for it. Verifications and limits are not audited.
   */
  readonly audited?: true;
}

export function defineRoute<I, O>(route: Route<I, O>): Route<I, O> {
  return route;
}

/** A list procedure: its handler returns a Page (routes/pagination.ts, toPage). */
export function defineListRoute<I, T>(route: Omit<Route<I, Page<T>>, 'list'>): Route<I, Page<T>> {
  return { ...route, list: true };
}
