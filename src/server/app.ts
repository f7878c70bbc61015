/**
 * The HTTP server: one static uWS route per procedure, a catch-all for 404/405, and the request
 * lifecycle rules of uWS (copy the request synchronously, onAborted before async work, cork every
 * deferred write) in this one place.
 */
import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError, ServiceUnavailableError } from '../errors/api-error.js';
import type { Route } from '../routes/define.js';
import type { Services } from '../wiring/services.js';
import { compileValidators } from '../validation/validators.js';
import { OPENAPI_PATH, registerOpenApi } from '../openapi/serve.js';
import { AuthFailureThrottle } from '../auth/failure-throttle.js';
import { throttleFailure } from './auth-failures.js';
import { registerDashboard } from './dashboard.js';
import { statusHead } from './http-status.js';
import { AnswerBatch } from './answer-batch.js';
import { failure, runProcedure, type Procedure } from './pipeline.js';
import { dataReply, errorReply, sendableBody, toApiError, type Reply } from './reply.js';
import { ClientAbortedError, HEADER_LIMIT_BYTES, headersTooLarge, readBody, readRequestInfo, tooLarge, type ConnectionState, type RequestInfo } from './request.js';
import { loadNativeUws, type Uws } from './uws.js';
import type { RequestStats } from '../obs/metrics.js';
import { requestLogLine } from '../obs/log.js';

export interface RunningServer {
  readonly port: number;
  readonly url: string;
  /** Stops accepting, waits for in-flight requests (up to `graceMs`), then closes connections. */
  close(graceMs?: number): Promise<void>;
}

const LIVENESS_PATH = '/v2/liveness';
/** For load balancers: 200 while every dependency answers, else 503. */
const READINESS_PATH = '/v2/readiness';
/** Prometheus metrics (METRICS=on, the default). */
const METRICS_PATH = '/metrics';

/** `/v2/keys.verifyKey`: letters only, never the shape of a key. */
const PROCEDURE_SHAPED = /^\/v2\/[A-Za-z]{1,40}\.[A-Za-z]{1,60}$/;

/** The peer's address as text (IPv4 as dotted quad, IPv6 in full). */
const remoteAddress = (res: HttpResponse): string => Buffer.from(res.getRemoteAddressAsText()).toString();

/** As bytes: uWS copies a string argument's UTF-8 out of V8 on every call (http-status.ts). */
const REQUEST_ID_HEADER = Buffer.from('x-request-id');

export function createServer(services: Services, routes: readonly Route[], uws: Uws = loadNativeUws()): {
  app: TemplatedApp;
  listen(): Promise<RunningServer>;
} {
  const validators = compileValidators(routes);
  const procedures = new Map<string, Procedure>();
  for (const route of routes) {
    const path = `/v2/${route.name}`;
    if (procedures.has(path)) throw new Error(`duplicate procedure ${route.name}`);
    procedures.set(path, { route, validate: validators.get(route.name)! });
  }
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const app = uws.App();

  const metrics = services.metrics;
  metrics?.inFlight(() => inFlight);
  const { docsUrl } = services.config;
  const authFailures = new AuthFailureThrottle(services.config.authFailuresPerMinute, services.now);
  // Made once: the level is fixed for the process, and asking pino per request costs.
  const logRequest = requestLogLine(services.log);
  const pathStats = (label: string): RequestStats | undefined => metrics?.requestStats(label);
  const unmatchedStats = pathStats('(unmatched)');

  /** Counts an answer for /metrics and logs one line for it. */
  const account = (info: RequestInfo, reply: Reply, label: string, stats: RequestStats | undefined, answeredAt: number): void => {
    const durationMs = answeredAt - info.startedAt;
    stats?.answered(reply.status, durationMs / 1e3);
    logRequest?.(info.requestId, label, reply.status, durationMs, answeredAt);
  };

  /**
   * Writes the answer, counts it for /metrics and logs one line for it. The line names the
   * procedure (or a fixed label), never the path a client sent, and nothing from the request.
   * `inCallback`: made in the request's own callback, where uWS has corked the socket already; on a
   * busy loop such an answer is held and written with the others of this turn (answer-batch.ts).
   * Answers made later (after I/O) are written at once: holding them too measured no gain in Redis
   * mode, only a wait.
   */
  const send = (res: HttpResponse, state: ConnectionState, info: RequestInfo, reply: Reply, label = '(unmatched)', stats = unmatchedStats, inCallback = false): void => {
    if (inCallback && batch.take()) {
      batch.add(res, state, info, reply, label, stats);
      return;
    }
    account(info, reply, label, stats, performance.now());
    if (state.aborted) return; // the client is gone; touching res now would throw
    // uWS corks the socket while it runs a route handler or a body chunk's callback: an answer
    // written there goes out in one send already; any later one must cork itself.
    if (inCallback) write(res, info, reply);
    else res.cork(() => write(res, info, reply));
  };

  const write = (res: HttpResponse, info: RequestInfo, reply: Reply): void => {
    res.writeStatus(statusHead(reply.status, reply.contentType)).writeHeader(REQUEST_ID_HEADER, info.requestId);
    const headers = reply.headers;
    if (headers !== undefined) for (const name in headers) res.writeHeader(name, headers[name] as string);
    const body = sendableBody(reply.body);
    // Text is flattened first (charCodeAt does): uWS measures and copies it in two walks, each slow
    // over the many pieces an answer is built from and fast over one flat string.
    if (typeof body === 'string' && body.length > 0) body.charCodeAt(body.length - 1);
    res.end(body, reply.close === true);
  };
  const batch = new AnswerBatch(write, account);

  /** Answers a request counted in `inFlight` (shutdown waits for them). */
  const finish = (res: HttpResponse, state: ConnectionState, info: RequestInfo, reply: Reply, label: string, stats: RequestStats | undefined, inCallback = false): void => {
    inFlight--;
    send(res, state, info, reply, label, stats, inCallback);
    if (inFlight === 0 && drained) drained();
  };

  for (const [path, procedure] of procedures) {
    const label = procedure.route.name;
    const stats = pathStats(label);
    // Only audited procedures (those that change state) read the client's address, for their event.
    const audited = procedure.route.audited === true;
    const known = { method: 'POST', path };
    app.post(path, (res, req) => {
      const info = readRequestInfo(req, known);
      // Read now: uWS answers it only during this callback.
      const clientAddress = audited ? remoteAddress(res) : '';
      const state: ConnectionState = { aborted: false };
      res.onAborted(() => {
        state.aborted = true;
        state.onAbort?.();
      });
      const limit = services.config.bodyLimitBytes;
      if (Number.isNaN(info.contentLength)) {
        const err = new ApiError('err:user:bad_request:request_body_unreadable', 'The Content-Length header is not a number.');
        send(res, state, info, errorReply(info.requestId, info.accept, services.config.docsUrl, err, true), label, stats);
        return;
      }
      if (info.headerBytes > HEADER_LIMIT_BYTES && info.contentLength <= limit) {
        // The (small) body is read first: closing a connection with unread data resets it, and
        // the client would lose the answer.
        inFlight++;
        readBody(res, state, limit, info.contentLength, () => {
          finish(res, state, info, errorReply(info.requestId, info.accept, services.config.docsUrl, headersTooLarge()), label, stats);
        });
        return;
      }
      if (info.contentLength > limit) {
        // Answer before reading: the body is never buffered, and the connection is closed.
        send(res, state, info, errorReply(info.requestId, info.accept, services.config.docsUrl, tooLarge(limit), true), label, stats);
        return;
      }
      // Callbacks and one promise (the procedure's): verifyKey runs this on every call.
      inFlight++;
      readBody(res, state, limit, info.contentLength, (err, body) => {
        if (body === null) {
          // A client that left mid-body gets no answer (send skips it) and is no fault of ours.
          finish(res, state, info, err instanceof ClientAbortedError ? { status: 499, contentType: 'text/plain', body: '' }
            : { ...failure(err, info, services, procedure.route.name), close: true }, label, stats);
          return;
        }
        const answered = (reply: Reply, inCallback = false): void =>
          finish(res, state, info, throttleFailure(authFailures, docsUrl, res, state, info, reply), label, stats, inCallback);
        // The body is lent (readBody): runProcedure parses it before it returns or awaits anything.
        const reply = runProcedure(procedure, info, body, services, clientAddress);
        if (reply instanceof Promise) void reply.then((r) => answered(r));
        else answered(reply, true);
      }, true);
    });
  }

  const liveness = (res: HttpResponse, req: Parameters<Parameters<TemplatedApp['get']>[1]>[1]): void => {
    const info = readRequestInfo(req);
    // Alive answers 200 whatever its dependencies do (restarting would not help); it names them.
    send(res, { aborted: false }, info, dataReply(info.requestId, { message: "we're cooking", ...services.health?.() }), 'liveness', livenessStats);
  };
  const livenessStats = pathStats('liveness');
  const readinessStats = pathStats('readiness');
  app.get(LIVENESS_PATH, liveness);
  app.post(LIVENESS_PATH, liveness);
  app.get(READINESS_PATH, (res, req) => {
    const info = readRequestInfo(req);
    const health = services.health?.() ?? {};
    const ready = Object.values(health).every((state) => state === 'reachable');
    send(res, { aborted: false }, info, ready
      ? dataReply(info.requestId, { ready: true, ...health })
      : errorReply(info.requestId, info.accept, services.config.docsUrl, toApiError(new ServiceUnavailableError(`not ready: ${JSON.stringify(health)}`))),
    'readiness', readinessStats);
  });

  if (metrics) {
    // Prometheus scrapes: the text exposition, built from counters only when asked (obs/metrics.ts).
    const metricsStats = pathStats('metrics');
    app.get(METRICS_PATH, (res, req) => {
      const info = readRequestInfo(req);
      const state: ConnectionState = { aborted: false };
      res.onAborted(() => { state.aborted = true; });
      metrics.render().then(
        (body) => send(res, state, info, { status: 200, contentType: metrics.contentType, body }, 'metrics', metricsStats),
        (err: unknown) => send(res, state, info, failure(err, info, services, 'metrics'), 'metrics', metricsStats));
    });
  }

  // The dashboard's files and session endpoints (src/server/dashboard.ts), before the catch-all.
  registerDashboard(app, services, authFailures);

  registerOpenApi(app, routes, services.config);

  app.any('/*', (res, req) => {
    const info = readRequestInfo(req);
    const state: ConnectionState = { aborted: false };
    let err: ApiError;
    const getOnly = info.path === READINESS_PATH || info.path === OPENAPI_PATH || (metrics !== undefined && info.path === METRICS_PATH);
    if (procedures.has(info.path) || info.path === LIVENESS_PATH || getOnly) {
      const allow = info.path === LIVENESS_PATH ? 'GET, POST' : getOnly ? 'GET' : 'POST';
      err = new ApiError('err:user:bad_request:method_not_allowed', `${info.method} is not allowed on ${info.path}; use ${allow}.`, { headers: { allow } });
    } else {
      // The path is named only when it is shaped like a procedure's: anything else could be a key
      // pasted into the URL, and answers are logged by clients and proxies.
      const named = PROCEDURE_SHAPED.test(info.path) ? info.path : 'this path';
      err = new ApiError('err:user:bad_request:procedure_not_found', `There is no procedure at ${named}. Procedures are served at POST /v2/<namespace>.<procedure>.`);
    }
    // Any body is left unread, so the connection is closed after the answer.
    send(res, state, info, errorReply(info.requestId, info.accept, services.config.docsUrl, err, true));
  });

  const listen = (): Promise<RunningServer> => new Promise((resolve, reject) => {
    const { host, port } = services.config;
    // Exclusive port: a second server on the same port fails here instead of sharing it silently.
    // The native module has listen(host, port, options, cb); these typings lack that overload.
    const listenExclusive = app.listen as unknown as (h: string, p: number, o: number, cb: (t: us_listen_socket | false) => void) => void;
    listenExclusive.call(app, host, port, (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT, (token) => {
      if (!token) {
        reject(new Error(`keygate cannot listen on ${host}:${port}: the address is in use or not available`));
        return;
      }
      const actualPort = uws.us_socket_local_port(token as unknown as Parameters<Uws['us_socket_local_port']>[0]);
      resolve({
        port: actualPort,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`,
        close: async (graceMs = 10_000) => {
          uws.us_listen_socket_close(token);
          if (inFlight > 0) {
            await new Promise<void>((done) => {
              const timer = setTimeout(done, graceMs);
              drained = () => { clearTimeout(timer); done(); };
            });
          }
          // The last answers may still be on their way out of uWS's buffers: closing the sockets
          // at once would drop them. One more turn of the loop lets uWS write them.
          await new Promise((resolve) => setTimeout(resolve, 20));
          // close() is in the native App but missing from these typings.
          (app as unknown as { close(): void }).close();
        },
      });
    });
  });

  return { app, listen };
}
