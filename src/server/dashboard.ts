/**
 * The dashboard on the uWS app: its files under GET /dashboard and its session endpoints under
 * /dashboard/api/session (logic in src/dashboard/). Registered by app.ts before the catch-all.
 * The same lifecycle rules as app.ts: copy the request synchronously, onAborted before async
 * work, cork every deferred write.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AuthFailureThrottle } from '../auth/failure-throttle.js';
import { CSRF_HEADER } from '../auth/session.js';
import { currentSession, signIn, signOut, type DashboardRequest } from '../dashboard/session-api.js';
import { DashboardFiles } from '../dashboard/static.js';
import type { Services } from '../wiring/services.js';
import { throttleFailure } from './auth-failures.js';
import { statusHead } from './http-status.js';
import { sendableBody, type Reply } from './reply.js';
import { readBody, readRequestInfo, type ConnectionState } from './request.js';

export const DASHBOARD_PATH = '/dashboard';
const SESSION_PATH = '/dashboard/api/session';
/** A sign-in body is one root key in JSON. */
const SIGN_IN_BODY_LIMIT = 8 * 1024;

const STATIC_STATUS = { 200: '200 OK', 304: '304 Not Modified', 404: '404 Not Found', 503: '503 Service Unavailable' } as const;

function dashboardRequest(req: HttpRequest): DashboardRequest {
  return {
    info: readRequestInfo(req),
    cookie: req.getHeader('cookie'),
    csrf: req.getHeader(CSRF_HEADER),
    forwardedProto: req.getHeader('x-forwarded-proto').toLowerCase(),
  };
}

function sendReply(res: HttpResponse, state: ConnectionState, requestId: string, reply: Reply): void {
  if (state.aborted) return;
  res.cork(() => {
    res.writeStatus(statusHead(reply.status, reply.contentType)).writeHeader('x-request-id', requestId);
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.writeHeader(name, value);
    res.end(sendableBody(reply.body), reply.close === true);
  });
}

export function registerDashboard(app: TemplatedApp, services: Services, authFailures: AuthFailureThrottle, files = new DashboardFiles()): void {
  const serveFile = (res: HttpResponse, req: HttpRequest): void => {
    const url = req.getUrl();
    const path = url === DASHBOARD_PATH || url === `${DASHBOARD_PATH}/` ? '' : url.slice(DASHBOARD_PATH.length + 1);
    const reply = files.serve(path, req.getHeader('if-none-match'), req.getHeader('accept-encoding'));
    res.cork(() => {
      res.writeStatus(STATIC_STATUS[reply.status]);
      for (const [name, value] of Object.entries(reply.headers)) res.writeHeader(name, value);
      res.end(reply.body);
    });
  };
  app.get(DASHBOARD_PATH, serveFile);
  app.get(`${DASHBOARD_PATH}/`, serveFile);
  app.get(`${DASHBOARD_PATH}/assets/*`, serveFile);

  const session = (handle: (r: DashboardRequest, res: HttpResponse, state: ConnectionState) => Promise<Reply>) =>
    (res: HttpResponse, req: HttpRequest): void => {
      const r = dashboardRequest(req);
      const state: ConnectionState = { aborted: false };
      res.onAborted(() => {
        state.aborted = true;
        state.onAbort?.();
      });
      void handle(r, res, state).then((reply) => sendReply(res, state, r.info.requestId, reply),
        () => sendReply(res, state, r.info.requestId, { status: 500, contentType: 'text/plain', body: '', close: true }));
    };
  app.post(SESSION_PATH, session(async (r, res, state) => {
    // Read to the end or refused (413, connection closed), as procedure bodies are.
    const body = await new Promise<Buffer | null>((resolve) => {
      readBody(res, state, SIGN_IN_BODY_LIMIT, r.info.contentLength, (_err, read) => resolve(read));
    });
    if (body === null) return { status: 413, contentType: 'text/plain', body: '', close: true };
    return throttleFailure(authFailures, services.config.docsUrl, res, state, r.info, await signIn(services, r, body));
  }));
  app.get(SESSION_PATH, session((r) => currentSession(services, r)));
  app.del(SESSION_PATH, session((r) => signOut(services, r)));
}
