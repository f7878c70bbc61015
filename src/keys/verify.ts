/**
 * Key verification in Unkey's fixed order: lookup (NOT_FOUND) → root-key scope (NOT_FOUND, so
 * nothing leaks) → permission-query syntax (400) → DISABLED → EXPIRED → permissions
 * (INSUFFICIENT_PERMISSIONS) → rate limits (RATE_LIMITED, 412 for unknown names) → credits
 * (USAGE_EXCEEDED). A failed step consumes nothing from the later ones.
 */
import type { Principal } from '../auth/permissions.js';
import { hashKey } from './format.js';
import { isSatisfied, parsePermissionQuery } from './permission-query.js';
import { resolveLimits, type AppliedLimit, type RequestedLimit } from './limits.js';
import { completeMigration, findPendingMigrated } from './migrated-lookup.js';
import type { VerifyDeps } from './deps.js';
import type { KeyRecord } from '../storage/records.js';
import { MISSING, type HotKey } from './hot-set.js';
import type { LimitGroupResult } from '../ratelimit/types.js';
import type { IdentityResponse } from './describe.js';
import { KeyVerdict } from './verify-answer.js';

export type VerifyCode = 'VALID' | 'NOT_FOUND' | 'FORBIDDEN' | 'INSUFFICIENT_PERMISSIONS' | 'USAGE_EXCEEDED' | 'RATE_LIMITED' | 'DISABLED' | 'EXPIRED';

export interface VerifyInput {
  readonly key: string;
  readonly tags?: readonly string[];
  readonly permissions?: string;
  readonly credits?: { readonly cost: number };
  readonly ratelimits?: readonly RequestedLimit[];
  /** Names the migration of a key imported under its source system's hash (keys.migrateKeys). */
  readonly migrationId?: string;
}

export interface VerifyRatelimit {
  id: string; name: string; limit: number; duration: number; reset: number; remaining: number; exceeded: boolean; autoApply: boolean;
}

export interface VerifyResult {
  valid: boolean;
  code: VerifyCode;
  keyId?: string;
  name?: string;
  meta?: Readonly<Record<string, unknown>>;
  expires?: number;
  credits?: number;
  enabled?: boolean;
  permissions?: string[];
  roles?: string[];
  identity?: IdentityResponse;
  ratelimits?: VerifyRatelimit[];
}

const NOT_FOUND: VerifyResult = Object.freeze({ valid: false, code: 'NOT_FOUND' }) as VerifyResult;

/**
 * Answers at once when everything needed is in memory (a remembered key, limits the limiter decides
 * in process, no credits): most verifications then never wait on a promise. Anything that needs
 * storage continues asynchronously. `requestId` labels the verification's record (analytics).
 */
export function verifyKey(services: VerifyDeps, principal: Principal, input: VerifyInput, requestId: string): VerifyResult | Promise<VerifyResult> {
  // Recorded with the outcome (analytics' latency_avg): the verification itself, not the transport.
  const startedAt = performance.now();
  const hash = hashKey(input.key);
  const found = services.hotKeys.peek(hash);
  if (found === undefined || (found === MISSING && input.migrationId !== undefined)) {
    return lookUpAndVerify(services, principal, input, requestId, hash, startedAt);
  }
  return verifyFound(services, principal, input, requestId, found === MISSING ? null : found, startedAt);
}

async function lookUpAndVerify(services: VerifyDeps, principal: Principal, input: VerifyInput, requestId: string, hash: string, startedAt: number): Promise<VerifyResult> {
  const { hotKeys } = services;
  const found = await hotKeys.load(hash);
  let hot = found === MISSING ? null : found;
  if (!hot && input.migrationId !== undefined) {
    const pending = await findPendingMigrated(services, principal, input.key, input.migrationId);
    if (pending) hot = await hotKeys.build(pending);
  }
  return verifyFound(services, principal, input, requestId, hot, startedAt);
}

function verifyFound(services: VerifyDeps, principal: Principal, input: VerifyInput, requestId: string, hot: HotKey | null, startedAt: number): VerifyResult | Promise<VerifyResult> {
  if (!hot || hot.workspaceId !== principal.workspaceId || hot.api === null) return NOT_FOUND;
  // The wildcard first: it is a constant (hashed once), the per-API name is built only without it.
  if (!principal.permissions.has('api.*.verify_key') && !principal.permissions.has(`api.${hot.key.apiId}.verify_key`)) return NOT_FOUND;
  // Only after the caller may verify this key: its first presentation completes its migration.
  if (hot.key.pendingMigrationId !== undefined) return migrateAndVerify(services, principal, input, requestId, hot.key, startedAt);
  const query = input.permissions === undefined ? null : parsePermissionQuery(input.permissions);
  const { key, identity } = hot;
  const result = new KeyVerdict(hot.description, hot.answer);
  const now = services.now();
  let code: VerifyCode = 'VALID';
  if (!key.enabled) code = 'DISABLED';
  else if (key.expires !== undefined && now > key.expires) code = 'EXPIRED';
  else if (query && !isSatisfied(query, hot.permissionSet)) code = 'INSUFFICIENT_PERMISSIONS';
  const step: Step = { services, input, requestId, hot, result, code, now, startedAt };
  if (code !== 'VALID') return spendAndFinish(step);
  const named = input.ratelimits !== undefined;
  const applied = named ? resolveLimits(key, identity, input.ratelimits) : hot.autoLimits;
  if (applied.length === 0) return spendAndFinish(step);
  const groups = named ? [{ checks: applied.map((a) => a.check) }] : hot.autoGroups;
  const { limiter } = services;
  if (limiter.limitNow !== undefined) return spendAndFinish(applyLimits(step, applied, !named, limiter.limitNow(groups)[0]!));
  return limiter.limit(groups).then(([group]) => spendAndFinish(applyLimits(step, applied, !named, group!)));
}

async function migrateAndVerify(services: VerifyDeps, principal: Principal, input: VerifyInput, requestId: string, key: KeyRecord, startedAt: number): Promise<VerifyResult> {
  const completed = await completeMigration(services, key, input.key);
  // A slow-hash key whose secret did not match: the same answer as for a key never imported.
  if (!completed) return NOT_FOUND;
  return verifyFound(services, principal, input, requestId, await services.hotKeys.build(completed), startedAt);
}

/** A verification past its lookup and checks, carried through the limits and credits. */
interface Step {
  readonly services: VerifyDeps;
  readonly input: VerifyInput;
  readonly requestId: string;
  readonly hot: HotKey;
  readonly result: KeyVerdict;
  code: VerifyCode;
  readonly now: number;
  readonly startedAt: number;
}

function applyLimits(step: Step, applied: readonly AppliedLimit[], auto: boolean, group: LimitGroupResult): Step {
  step.result.setLimits(applied, group.results, auto);
  if (!group.passed) step.code = 'RATE_LIMITED';
  return step;
}

function spendAndFinish(step: Step): VerifyResult | Promise<VerifyResult> {
  const { key } = step.hot;
  if (!key.hasCredits) return finish(step, 0);
  const keys = step.services.storage.keys;
  if (step.code !== 'VALID') {
    return keys.getCredits(key.id).then((credits) => {
      if (credits) step.result.credits = credits.remaining;
      return finish(step, 0);
    });
  }
  const cost = step.input.credits?.cost ?? 1;
  return keys.spendCredits(key.id, cost).then((spent) => {
    if (!spent.passed) step.code = 'USAGE_EXCEEDED';
    if (spent.remaining !== null) step.result.credits = spent.remaining;
    return finish(step, spent.passed && spent.remaining !== null ? cost : 0);
  });
}

function finish(step: Step, spentCredits: number): VerifyResult {
  const { result, code, hot, input } = step;
  const { key, identity } = hot;
  result.valid = code === 'VALID';
  result.code = code;
  const tagged = input.tags !== undefined && input.tags.length > 0;
  // Buffered, not written here: recording never delays the answer. Untagged records of a key
  // share the key's slot per outcome (their dimensions are the same).
  // One shape for every record (absent fields undefined, not spread in): the recorder reads it at once.
  step.services.recorder.record({
    time: step.now, requestId: step.requestId, apiId: key.apiId, keyId: key.id, outcome: code, spentCredits, latency: performance.now() - step.startedAt,
    identityId: identity?.id, externalId: identity?.externalId, tags: tagged ? input.tags : undefined,
  }, tagged ? undefined : (hot.recording[code] ??= {}));
  return result;
}
