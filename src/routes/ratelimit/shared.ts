/**
 * What the ratelimit procedures share: the limit request schema, namespace resolution (created on
 * first use by limit/multiLimit, never by the override procedures), authorization tuples (they
 * name the namespace id), and turning one limit request into a limiter check with its
 * override applied. ratelimit.limit and ratelimit.multiLimit both go through here, so one request
 * means the same thing in either.
 */
import { requireAny, type Principal } from '../../auth/permissions.js';
import { ApiError } from '../../errors/api-error.js';
import { findOverride } from '../../ratelimit/overrides.js';
import type { LimitCheck } from '../../ratelimit/types.js';
import type { Services } from '../../wiring/services.js';
import type { RATELIMIT_OVERRIDE } from '../../shapes/responses.js';
import type { ShapeOf } from '../../shapes/shape-of.js';
import type { NamespaceRecord, RatelimitOverrideRecord } from '../../storage/records.js';
import type { OverrideStore } from '../../storage/types.js';
import { newId } from '../../util/ids.js';
import type { RequestOf } from '../define.js';
import { MAX_SAFE } from '../schemas.js';

/** Namespace names and identifiers: 1..512 characters of anything (Unkey's schema). */
export const NAMESPACE = { type: 'string', minLength: 1, maxLength: 512 } as const;
export const IDENTIFIER = { type: 'string', minLength: 1, maxLength: 512 } as const;

/** getOverride and deleteOverride name one override by namespace and identifier. */
export const OVERRIDE_REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['namespace', 'identifier'],
  properties: { namespace: NAMESPACE, identifier: IDENTIFIER },
} as const;
export type OverrideRequest = RequestOf<typeof OVERRIDE_REQUEST>;

/** One ratelimit.limit request; also each item of a ratelimit.multiLimit array. */
export const LIMIT_REQUEST = {
  type: 'object',
  additionalProperties: false,
  required: ['namespace', 'identifier', 'limit', 'duration'],
  properties: {
    namespace: NAMESPACE,
    identifier: IDENTIFIER,
    limit: { type: 'integer', minimum: 1, maximum: MAX_SAFE },
    duration: { type: 'integer', minimum: 1000, maximum: 2_592_000_000 },
    cost: { type: 'integer', minimum: 0, maximum: MAX_SAFE, default: 1 },
  },
} as const;
export type LimitRequest = RequestOf<typeof LIMIT_REQUEST>;

/** Counters of ratelimit.*: per namespace id and identifier (the duration is added by the limiter). */
export const namespaceCounter = (namespaceId: string, identifier: string): string => `ns:${namespaceId}:${identifier}`;

export const limitPermissions = (namespaceId: string): string[] => ['ratelimit.*.limit', `ratelimit.${namespaceId}.limit`];

/**
 * The namespaces named (by name or id), keyed by the string as sent. Missing ones are created by
 * name, which needs `ratelimit.*.create_namespace`: checked once before any is created, so a
 * forbidden request creates nothing.
 */
export async function resolveNamespaces(principal: Principal, services: Services, namesOrIds: readonly string[]): Promise<Map<string, NamespaceRecord>> {
  const { namespaces } = services.storage;
  const found = new Map<string, NamespaceRecord | null>();
  for (const name of new Set(namesOrIds)) found.set(name, await namespaces.find(principal.workspaceId, name));
  const missing = [...found].filter(([, ns]) => ns === null).map(([name]) => name);
  if (missing.length > 0) requireAny(principal, ['ratelimit.*.create_namespace']);
  for (const name of missing) {
    found.set(name, await namespaces.getOrCreate(principal.workspaceId, name, () => ({
      id: newId('rlns'), workspaceId: principal.workspaceId, name, createdAt: services.now(),
    })));
  }
  return found as Map<string, NamespaceRecord>;
}

/** limit/multiLimit on a soft-deleted namespace: 410 (setOverride and friends answer 404 instead). */
export function requireLive(namespace: NamespaceRecord): void {
  if (namespace.deletedAt !== undefined) {
    throw new ApiError('err:unkey:data:ratelimit_namespace_gone', 'This namespace has been deleted.');
  }
}

/**
 * The namespace an override procedure names. Never created here; a missing or soft-deleted one is
 * a 404, answered before any permission check (Unkey's order). `allowDeleted` is for
 * listOverrides, which still lists the overrides of a deleted namespace, as Unkey does.
 */
export async function existingNamespace(principal: Principal, services: Services, nameOrId: string, allowDeleted = false): Promise<NamespaceRecord> {
  const namespace = await services.storage.namespaces.find(principal.workspaceId, nameOrId);
  if (!namespace || (namespace.deletedAt !== undefined && !allowDeleted)) {
    throw new ApiError('err:unkey:data:ratelimit_namespace_not_found', 'This namespace does not exist.');
  }
  return namespace;
}

export interface PlannedCheck {
  readonly check: LimitCheck;
  readonly overrideId?: string;
}

/**
 * One limit request as a limiter check. A matching override (src/ratelimit/overrides.ts) replaces
 * both limit and duration, so its counter is the one of its duration.
 */
export async function planCheck(overrides: OverrideStore, namespace: NamespaceRecord, request: LimitRequest): Promise<PlannedCheck> {
  const override = await findOverride(overrides, namespace.id, request.identifier);
  const limit = override?.limit ?? request.limit;
  const check: LimitCheck = {
    counter: namespaceCounter(namespace.id, request.identifier),
    // One owner per identifier: one user's counters across namespaces share a Redis slot, so a
    // multiLimit for one identifier is atomic; across identifiers it is compensated.
    owner: request.identifier,
    limit,
    durationMs: override?.duration ?? request.duration,
    // An override of 0 blocks (keygate's decision; Unkey answers 500): the limiter denies every
    // check against a limit of 0, cost 0 included, so nothing is consumed and its group is denied.
    cost: request.cost,
  };
  return override ? { check, overrideId: override.id } : { check };
}

/** Unkey's RatelimitOverride: every field always present. */
export type OverrideResponse = ShapeOf<typeof RATELIMIT_OVERRIDE>;

export const overrideResponse = (o: RatelimitOverrideRecord): OverrideResponse => ({ overrideId: o.id, identifier: o.identifier, limit: o.limit, duration: o.duration });
