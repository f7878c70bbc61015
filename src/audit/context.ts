/**
 * Building an event from who called: the pipeline knows the principal, the request id, the client
 * address and the dashboard session; routes add what they changed. Passed explicitly (no async
 * context tracking): only mutating procedures ever build one.
 */
import { createHash } from 'node:crypto';
import type { Principal } from '../auth/permissions.js';
import { sessionIdFrom, type SessionCredentials } from '../auth/session.js';
import { WORKSPACE_ID } from '../storage/records.js';
import type { AuditActor, AuditEvent, AuditTarget } from './event.js';
import { newAuditId } from './ids.js';

/** What a route says about its change. */
export interface AuditDetails {
  readonly targets: readonly AuditTarget[];
  readonly summary: string;
  readonly changes?: Readonly<Record<string, unknown>> | undefined;
}

/** Who made a call and through what, as the transport saw it. */
export interface AuditOrigin {
  readonly actor: AuditActor;
  readonly workspaceId: string;
  readonly procedure: string;
  readonly requestId?: string;
  readonly clientAddress?: string;
  /** Credentials of a dashboard call; only a digest of the session id is kept. */
  readonly session?: SessionCredentials | null;
}

/** A digest of the session id: tells sessions apart in the log without letting anyone use one. */
export const sessionReference = (sessionId: string): string =>
  `ses_${createHash('sha256').update(`audit\u0000${sessionId}`).digest('base64url').slice(0, 16)}`;

export const rootKeyActor = (principal: Principal): AuditActor => ({
  type: 'root_key', id: principal.rootKeyId, ...(principal.rootKeyName ? { name: principal.rootKeyName } : {}),
});

export function auditEvent(origin: AuditOrigin, details: AuditDetails, timeMs: number): AuditEvent {
  const sessionId = origin.session ? sessionIdFrom(origin.session.cookie) : '';
  return {
    id: newAuditId(timeMs),
    time: timeMs,
    workspaceId: origin.workspaceId,
    actor: origin.actor,
    ...(sessionId !== '' ? { session: sessionReference(sessionId) } : {}),
    procedure: origin.procedure,
    targets: details.targets,
    ...(origin.requestId !== undefined ? { requestId: origin.requestId } : {}),
    ...(origin.clientAddress ? { clientAddress: origin.clientAddress } : {}),
    summary: details.summary,
    ...(details.changes !== undefined ? { changes: details.changes } : {}),
  };
}

/** An event of an operator command run on the server's machine (the `keygate` CLI, ROOT_KEY at start-up). */
export function operatorEvent(actor: 'cli' | 'bootstrap', procedure: string, details: AuditDetails, timeMs = Date.now()): AuditEvent {
  return auditEvent({ actor: { type: actor }, workspaceId: WORKSPACE_ID, procedure }, details, timeMs);
}
