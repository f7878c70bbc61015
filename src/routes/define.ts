/**
 * A procedure is a small declared object: its wire name, its request schema (compiled once at
 * start-up by validation/validators.ts) and its handler. The server knows nothing else about it.
 */
import type { Principal } from '../auth/permissions.js';
import type { Logger } from '../obs/log.js';
import type { Services } from '../services.js';
import type { Page } from './pagination.js';

export interface RouteContext<I> {
  /** The request body, validated, with schema defaults applied. */
  readonly input: I;
  readonly principal: Principal;
  readonly services: Services;
  readonly requestId: string;
  readonly log: Logger;
}

export interface Route<I = unknown, O = unknown> {
  /** Wire name `<namespace>.<procedure>`, served at POST /v2/<name>. */
  readonly name: string;
  /** JSON Schema of the request body. */
  readonly requestSchema: Readonly<Record<string, unknown>>;
  /**
   * Resolves to the response `data`, or to `undefined` for procedures whose success body has no
   * `data` (Unkey's deleteIdentity). Throws ApiError for request faults.
   */
  handle(ctx: RouteContext<I>): Promise<O>;
  /**
   * List procedures (Unkey's listKeys, listIdentities, …): the handler resolves to a `Page`, and
   * the pipeline sends `{meta, data: page.data, pagination: page.pagination}` instead of wrapping
   * the whole value in `data`. Set by defineListRoute, never by hand.
   */
  readonly list?: true;
}

export function defineRoute<I, O>(route: Route<I, O>): Route<I, O> {
  return route;
}

/** A list procedure: its handler returns a Page (routes/pagination.ts, toPage). */
export function defineListRoute<I, T>(route: Omit<Route<I, Page<T>>, 'list'>): Route<I, Page<T>> {
  return { ...route, list: true };
}
