/**
 * The dashboard's session endpoints, the only ones beside the procedures themselves:
 *
 *   POST   /dashboard/api/session  {"rootKey": "..."}  sign in: sets the session cookie
 *   GET    /dashboard/api/session                      who is signed in (after a page reload)
 *   DELETE /dashboard/api/session                      sign out (needs the CSRF header)
 *
 * Everything else the dashboard does is a normal procedure call (POST /v2/<procedure>) with the
 * cookie and the CSRF header instead of a bearer token: same validation, same permission checks.
 * Answers use the usual envelope.
 */
import { CSRF_HEADER, SECURE_SESSION_COOKIE, SESSION_COOKIE, liveSession, sameToken, sessionIdFrom } from '../auth/session.js';
import { ApiError } from '../errors/api-error.js';
import { hashKey } from '../keys/format.js';
import type { Services } from '../wiring/services.js';
import type { RootKeyRecord } from '../storage/records.js';
import type { Session } from '../storage/sessions.js';
import { parseJsonBody } from '../server/pipeline.js';
import { dataReply, errorReply, toApiError, type Reply } from '../server/reply.js';
import type { RequestInfo } from '../server/request.js';

/** What a dashboard request carries beyond RequestInfo. */
export interface DashboardRequest {
  readonly info: RequestInfo;
  readonly cookie: string;
  readonly csrf: string;
  /** `x-forwarded-proto` from a TLS-terminating proxy: `https` adds the Secure flag. */
  readonly forwardedProto: string;
}

const INVALID = 'The root key is invalid or revoked.';
const NOT_SIGNED_IN = 'Not signed in, or the session has expired or was ended.';

/** Over HTTPS: always by the setting, or a proxy says so (plain-HTTP localhost cannot keep a Secure cookie). */
const overHttps = (services: Services, req: DashboardRequest): boolean =>
  services.config.sessionCookieSecure === 'always' || req.forwardedProto === 'https';

function cookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  // HttpOnly: page scripts never see it. SameSite=Strict: no other site's page sends it. Path=/:
  // the procedures live under /v2.
  const name = secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  return `${name}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

function sessionData(record: RootKeyRecord, session: Session): Record<string, unknown> {
  return {
    rootKeyId: record.id,
    ...(record.name === undefined ? {} : { name: record.name }),
    permissions: [...record.permissions].sort(),
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt,
  };
}

function withHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return { ...reply, headers: { ...reply.headers, 'cache-control': 'no-store', ...headers } };
}

function fail(services: Services, req: DashboardRequest, err: unknown): Reply {
  const apiError = toApiError(err);
  if (!(err instanceof ApiError)) services.log.error({ requestId: req.info.requestId, err }, 'dashboard session request failed');
  return withHeaders(errorReply(req.info.requestId, req.info.accept, services.config.docsUrl, apiError), {});
}

export async function signIn(services: Services, req: DashboardRequest, body: Buffer): Promise<Reply> {
  try {
    // JSON only: a cross-site HTML form cannot send application/json, so nobody can be signed in
    // with someone else's key from another site.
    const input = parseJsonBody(req.info, body) as { rootKey?: unknown } | null;
    const rootKey = input !== null && typeof input === 'object' && !Array.isArray(input) ? input.rootKey : undefined;
    if (typeof rootKey !== 'string' || rootKey.length === 0 || rootKey.length > 512) {
      throw new ApiError('err:unkey:application:invalid_input', 'Send {"rootKey": "<root key>"}.', {
        issues: [{ location: '/properties/rootKey', message: 'rootKey must be a string of 1 to 512 characters' }],
      });
    }
    const record = await services.storage.rootKeys.findByHash(hashKey(rootKey.trim()));
    if (!record || record.revokedAt !== undefined) throw new ApiError('err:keygate:authentication:unauthorized', INVALID);
    const { id, session } = await services.storage.sessions.create(record.hash, services.now());
    services.log.info({ requestId: req.info.requestId, rootKeyId: record.id }, 'dashboard sign-in');
    const maxAge = Math.floor((session.expiresAt - session.createdAt) / 1000);
    return withHeaders(dataReply(req.info.requestId, sessionData(record, session)), { 'set-cookie': cookie(id, maxAge, overHttps(services, req)) });
  } catch (err) {
    return fail(services, req, err);
  }
}

export async function currentSession(services: Services, req: DashboardRequest): Promise<Reply> {
  try {
    const live = await liveSession(services.storage.rootKeys, services.storage.sessions, sessionIdFrom(req.cookie), services.now());
    if (!live) throw new ApiError('err:keygate:authentication:unauthorized', NOT_SIGNED_IN);
    return withHeaders(dataReply(req.info.requestId, sessionData(live.record, live.session)), {});
  } catch (err) {
    return fail(services, req, err);
  }
}

export async function signOut(services: Services, req: DashboardRequest): Promise<Reply> {
  try {
    const id = sessionIdFrom(req.cookie);
    const session = id === '' ? null : await services.storage.sessions.get(id, services.now());
    if (session) {
      if (!sameToken(req.csrf, session.csrfToken)) {
        throw new ApiError('err:keygate:authentication:unauthorized', `Signing out needs the session's ${CSRF_HEADER} header.`);
      }
      await services.storage.sessions.end(id);
    }
    return withHeaders(dataReply(req.info.requestId, {}), { 'set-cookie': cookie('', 0, overHttps(services, req) || req.cookie.includes(`${SECURE_SESSION_COOKIE}=`)) });
  } catch (err) {
    return fail(services, req, err);
  }
}
