/**
 * Which rate limits one verification checks (Unkey's rules for keys.verifyKey):
 * key and identity configs merge by name (the key's wins); every autoApply config runs at cost 1;
 * each requested entry either defines an inline limit (limit and duration given, counted per key)
 * or names a merged config; an unknown name is a 412.
 */
import { intern } from '../util/intern.js';
import { ApiError } from '../errors/api-error.js';
import type { IdentityRecord, KeyRecord, RatelimitConfig } from '../storage/records.js';
import { memoryKeyOf, type LimitCheck } from '../ratelimit/types.js';

export interface RequestedLimit {
  readonly name: string;
  readonly cost: number;
  readonly limit?: number;
  readonly duration?: number;
}

export interface AppliedLimit {
  readonly check: LimitCheck;
  /** Stored config id, "" for inline limits. */
  readonly id: string;
  readonly name: string;
  readonly autoApply: boolean;
}

interface Source { readonly config: RatelimitConfig; readonly owner: 'key' | 'identity' }

/** Counters: key limits count per key, identity limits per identity (shared by all its keys). */
const keyCounter = (keyId: string, name: string): string => `vk:k:${keyId}:${name}`;
const identityCounter = (identityId: string, name: string): string => `vk:i:${identityId}:${name}`;

/**
 * Every check verifyKey makes has this one shape, its memory-limiter key included, so the limiter
 * reads their fields from one hidden class. Only checks kept for reuse (the hot set's) intern
 * their key and carry a memo for the limiter.
 */
function check(counter: string, owner: string, limit: number, durationMs: number, cost: number, kept: boolean): LimitCheck {
  const memoryKey = memoryKeyOf(counter, durationMs);
  return { counter, owner, limit, durationMs, cost, memoryKey: kept ? intern(memoryKey) : memoryKey, memo: kept ? {} : undefined };
}

function mergedConfigs(key: KeyRecord, identity: IdentityRecord | null): Map<string, Source> {
  const merged = new Map<string, Source>();
  for (const config of identity?.ratelimits ?? []) merged.set(config.name, { config, owner: 'identity' });
  for (const config of key.ratelimits) merged.set(config.name, { config, owner: 'key' });
  return merged;
}

/** `kept`: the checks are made once and used by many verifications (the hot set's). */
export function resolveLimits(key: KeyRecord, identity: IdentityRecord | null, requested: readonly RequestedLimit[] | undefined, kept = false): AppliedLimit[] {
  const merged = mergedConfigs(key, identity);
  // One owner for every check of the verification, so the Redis limiter keeps them in one slot
  // and commits them in one script (all or nothing without compensation).
  const limitOwner = identity?.id ?? key.id;
  const applied = new Map<string, AppliedLimit>();
  const fromConfig = ({ config, owner: source }: Source, cost: number): AppliedLimit => {
    // Interned: these name the counters in the limiters' Maps on every verification.
    const counter = intern(source === 'key' ? keyCounter(key.id, config.name) : identityCounter(identity!.id, config.name));
    return { check: check(counter, limitOwner, config.limit, config.duration, cost, kept), id: config.id, name: config.name, autoApply: config.autoApply };
  };
  for (const source of merged.values()) if (source.config.autoApply) applied.set(source.config.name, fromConfig(source, 1));
  for (const r of requested ?? []) {
    if (r.limit !== undefined && r.duration !== undefined) {
      applied.set(r.name, {
        check: check(keyCounter(key.id, r.name), limitOwner, r.limit, r.duration, r.cost, false),
        id: '', name: r.name, autoApply: false,
      });
      continue;
    }
    const source = merged.get(r.name);
    if (!source) {
      const owner = identity
        ? `nor identity: '${identity.id}' external ID: '${identity.externalId}'`
        : 'and there is no identity connected';
      throw new ApiError('err:unkey:application:precondition_failed', `ratelimit '${r.name}' was requested but does not exist for key '${key.id}' ${owner}.`);
    }
    applied.set(r.name, fromConfig(source, r.cost));
  }
  return [...applied.values()];
}
