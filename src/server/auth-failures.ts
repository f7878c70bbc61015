/** Where the transport applies the failed-authentication throttle (src/auth/failure-throttle.ts). */
import type { HttpResponse } from 'uWebSockets.js';
import type { AuthFailureThrottle } from '../auth/failure-throttle.js';
import { errorReply, type Reply } from './reply.js';
import type { ConnectionState, RequestInfo } from './request.js';

const text = new TextDecoder();

/**
 * A 401 counts against the client's address and becomes the 429 once the address is over its
 * budget; every other reply passes untouched, so successful calls never reach the throttle.
 */
export function throttleFailure(throttle: AuthFailureThrottle, docsUrl: string, res: HttpResponse, state: ConnectionState, info: RequestInfo, reply: Reply): Reply {
  if (reply.status !== 401 || state.aborted) return reply;
  const refused = throttle.fail(text.decode(res.getRemoteAddressAsText()));
  return refused === null ? reply : errorReply(info.requestId, info.accept, docsUrl, refused);
}
