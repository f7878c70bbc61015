/**
 * What happens to one procedure call once its body is read: content type → JSON → schema →
 * root key → handler → reply. Every failure lands in one catch and becomes an error envelope.
 */
import { ApiError } from '../errors/api-error.js';
import { authenticateSession } from '../auth/session.js';
import { assertJsonDepth } from '../validation/json-bounds.js';
import type { Route, RouteContext } from '../routes/define.js';
import type { Principal } from '../auth/permissions.js';
import type { Logger } from '../obs/log.js';
import type { Services } from '../wiring/services.js';
import type { Validator } from '../validation/validators.js';
import type { Page } from '../shapes/page.js';
import { dataReply, errorReply, isFault, pageReply, toApiError, type Reply } from './reply.js';
import type { RequestInfo } from './request.js';
import { auditEvent, rootKeyActor, type AuditDetails } from '../audit/context.js';
import type { AuditEvent } from '../audit/event.js';

export interface Procedure {
  readonly route: Route;
  readonly validate: Validator;
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;
/** One decoder for every request: decode() without `stream` starts afresh each call. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The content type every SDK sends, compared before the pattern (which allocates per call). */
const APPLICATION_JSON = 'application/json';

/** The body as JSON, after its checks in this order: content type, nesting depth, UTF-8, JSON. */
export function parseJsonBody(info: RequestInfo, body: Buffer): unknown {
  assertJsonContentType(info);
  assertJsonDepth(body);
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new ApiError('err:unkey:application:invalid_input', 'The request body is not valid UTF-8.', {
      issues: [{ location: 'body', message: 'body must be UTF-8 encoded JSON' }],
    });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    // V8's message may quote the body (and so a key); only the position is kept.
    const position = err instanceof Error ? /position (\d+)/.exec(err.message)?.[1] : undefined;
    const where = position === undefined ? '' : ` (at position ${position})`;
    throw new ApiError('err:unkey:application:invalid_input', 'The request body is not valid JSON.', {
      issues: [{ location: 'body', message: `body is not valid JSON${where}`, fix: 'Send the request as one JSON document (an object; an array for ratelimit.multiLimit).' }],
    });
  }
}

function assertJsonContentType(info: RequestInfo): void {
  if (info.contentType === APPLICATION_JSON || JSON_CONTENT_TYPE.test(info.contentType)) return;
  throw new ApiError('err:unkey:application:invalid_input', 'The request body must be sent as application/json.', {
    issues: [{ location: 'header.content-type', message: `content-type must be application/json (got '${info.contentType.slice(0, 100)}')`, fix: 'Send the header `Content-Type: application/json`.' }],
  });
}

/**
 * The input of the route's most common body, read by its quickInput from the body's text (after
 * the content type is checked, as for any body), or undefined: parse and validate as usual then
 * (a body that is not UTF-8 is refused there, after the depth check, as without quickInput).
 */
function quickInputOf(info: RequestInfo, body: Buffer, quick: (text: string) => unknown): unknown {
  assertJsonContentType(info);
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    return undefined;
  }
  return quick(text);
}

/**
 * A class, not an object literal with a getter: a literal with an accessor is built in V8's slow
 * dictionary mode, and one is made for every call (every verifyKey).
 */
class Context implements RouteContext<unknown> {
  constructor(readonly input: unknown, readonly principal: Principal, readonly services: Services,
    readonly requestId: string, private readonly routeName: string, private readonly info: RequestInfo, private readonly clientAddress: string) {}

  /** Made only when a handler logs: verifyKey never does, and a child logger per call costs. */
  get log(): Logger {
    return this.services.log.child({ requestId: this.requestId, route: this.routeName });
  }

  audit(details: AuditDetails): AuditEvent {
    const origin = {
      actor: rootKeyActor(this.principal), workspaceId: this.principal.workspaceId, procedure: this.routeName,
      requestId: this.requestId, clientAddress: this.clientAddress, session: this.info.session,
    };
    return auditEvent(origin, details, this.services.now());
  }
}

/**
 * The reply itself when nothing on the way needed I/O (a remembered root key, a handler that
 * answered at once), else a promise of it: the common verifyKey is answered in the turn its body
 * arrived, without a promise. `body` may be a view valid only until this returns (readBody's
 * `lend`): it is parsed first, synchronously, and never kept.
 */
export function runProcedure(procedure: Procedure, info: RequestInfo, body: Buffer, services: Services, clientAddress = ''): Reply | Promise<Reply> {
  const { route } = procedure;
  try {
    let input = route.quickInput === undefined ? undefined : quickInputOf(info, body, route.quickInput);
    if (input === undefined) procedure.validate(input = parseJsonBody(info, body), info.path);
    const principal = info.session === null
      ? services.rootKeyAuth.authenticate(info.authorization)
      : authenticateSession(services.storage.rootKeys, services.storage.sessions, info.session, services.now());
    if (principal instanceof Promise) {
      const failed = failedReply(info, services, route.name);
      return principal.then((p) => guarded(() => handle(procedure, input, p, info, services, clientAddress), failed), failed);
    }
    return handle(procedure, input, principal, info, services, clientAddress);
  } catch (err) {
    return failure(err, info, services, route.name);
  }
}

/** The failure reply of whatever a deferred step throws: made only on the paths that defer. */
const failedReply = (info: RequestInfo, services: Services, routeName: string) =>
  (err: unknown): Reply => failure(err, info, services, routeName);

/** `make()`, or the failure reply of whatever it throws. */
function guarded<T>(make: () => T, failed: (err: unknown) => Reply): T | Reply {
  try {
    return make();
  } catch (err) {
    return failed(err);
  }
}

/** The handler's reply; a promise of it never rejects (one promise per call: verifyKey awaits it on every limit check in Redis). */
function handle(procedure: Procedure, input: unknown, principal: Principal, info: RequestInfo, services: Services, clientAddress: string): Reply | Promise<Reply> {
  const { route } = procedure;
  const data = route.handle(new Context(input, principal, services, info.requestId, route.name, info, clientAddress));
  if (!(data instanceof Promise)) return replyOf(route, info, services, data);
  const failed = failedReply(info, services, route.name);
  return data.then((value) => guarded(() => replyOf(route, info, services, value), failed), failed);
}

function replyOf(route: Route, info: RequestInfo, services: Services, value: unknown): Reply {
  route.answered?.(value, services);
  return route.list ? pageReply(info.requestId, value as Page<unknown>) : dataReply(info.requestId, value);
}

/** Turns anything thrown into an error reply; faults are logged with the request id. */
export function failure(err: unknown, info: RequestInfo, services: Services, routeName: string): Reply {
  const apiError = toApiError(err);
  if (isFault(apiError.code)) {
    services.log.error({ requestId: info.requestId, route: routeName, err }, 'request failed');
  }
  return errorReply(info.requestId, info.accept, services.config.docsUrl, apiError);
}
