/**
 * Records as stored (msgpack-encoded) by every backend. Times are unix milliseconds.
 * Optional fields are absent rather than null, so records stay small.
 */

/** Everything of one self-hosted keygate lives in one workspace; kept on records for scoping. */
export const WORKSPACE_ID = 'ws_keygate';

export interface RootKeyRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name?: string;
  /** base64(sha256(plaintext)); the plaintext is never stored. */
  readonly hash: string;
  /** Display hint: prefix and first characters, never enough to use the key. */
  readonly start: string;
  readonly permissions: readonly string[];
  readonly createdAt: number;
  readonly revokedAt?: number;
}

export interface ApiRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly keyspaceId: string;
  readonly createdAt: number;
  readonly deletedAt?: number;
}

/** A named limit configured on a key or an identity (Unkey's RatelimitRequest/Response). */
export interface RatelimitConfig {
  readonly id: string;
  readonly name: string;
  readonly limit: number;
  readonly duration: number;
  readonly autoApply: boolean;
}

export interface CreditsRefill {
  readonly interval: 'daily' | 'monthly';
  readonly amount: number;
  /** Only for monthly refills: day of month 1..31 (the last day of shorter months). */
  readonly refillDay?: number;
}

/** Mutable usage counter of a key, kept apart from the key so verifications never rewrite it. */
export interface CreditsRecord {
  /** Remaining credits; never below zero. */
  readonly remaining: number;
  readonly refill?: CreditsRefill;
  readonly lastRefillAt?: number;
}

export interface KeyRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly apiId: string;
  readonly keyspaceId: string;
  readonly hash: string;
  readonly start: string;
  readonly name?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly identityId?: string;
  readonly expires?: number;
  readonly enabled: boolean;
  /** True when the key has limited credits (a CreditsRecord exists for it). */
  readonly hasCredits: boolean;
  readonly ratelimits: readonly RatelimitConfig[];
  /** Direct permission slugs. */
  readonly permissions: readonly string[];
  /** Role names. */
  readonly roles: readonly string[];
  readonly createdAt: number;
  readonly updatedAt?: number;
  /**
   * Set on keys imported by keys.migrateKeys until their first successful verification, which
   * rewrites the hash to keygate's own (when the migration's algorithm differs) and sets `start`.
   */
  readonly pendingMigrationId?: string;
  /**
   * Slow-hash migrations (bcrypt, scrypt, argon2id) only: the source system's encoded hash of the
   * key's secret, checked in the worker pool at the first verification and removed with
   * `pendingMigrationId`. Never part of any response.
   */
  readonly pendingMigrationHash?: string;
}

/**
 * How keys imported by keys.migrateKeys were hashed by the system they come from.
 * `sha256`: SHA-256 of the whole key (imported as base64, or hex converted to base64), found by the
 * ordinary lookup. `github.com/seamapi/prefixed-api-key`: hex SHA-256 of the key's last `_` segment;
 * verifyKey must name the migration until the key's first verification rehashes it.
 * `bcrypt`, `scrypt`, `argon2id`: keys `<prefix>_<lookup>_<secret>`, imported as
 * `<lookup>:<slow hash of secret>` (src/keys/migration-slow.ts); verifyKey must name the migration
 * until the key's first verification checks the secret in the worker pool and rehashes it.
 */
export type MigrationAlgorithm = 'sha256' | 'github.com/seamapi/prefixed-api-key' | 'bcrypt' | 'scrypt' | 'argon2id';

/** A migration: created by an operator (`keygate migration create`), referenced by migrateKeys. */
export interface MigrationRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly algorithm: MigrationAlgorithm;
  readonly name?: string;
  readonly createdAt: number;
}

export interface IdentityRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly externalId: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly ratelimits: readonly RatelimitConfig[];
  readonly createdAt: number;
  readonly updatedAt?: number;
}

export interface NamespaceRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly name: string;
  readonly createdAt: number;
  readonly deletedAt?: number;
}

/**
 * A rate-limit override (Unkey's RatelimitOverride): replaces limit and duration of
 * ratelimit.limit/multiLimit calls in its namespace whose identifier equals `identifier` or, when
 * it contains `*`, matches it as a pattern. One per (namespace, identifier), deleted ones included.
 */
export interface RatelimitOverrideRecord {
  readonly id: string;
  readonly workspaceId: string;
  readonly namespaceId: string;
  /** Exact identifier or pattern (`*` = any run of characters); case-sensitive. */
  readonly identifier: string;
  /** 0 blocks every request that matches. */
  readonly limit: number;
  readonly duration: number;
  readonly createdAt: number;
  readonly updatedAt?: number;
  /** Soft delete: the override no longer applies, and setOverride revives it with the same id. */
  readonly deletedAt?: number;
}

/** What a verification is about: the columns verification records and their rollups share. */
export interface VerificationDimensions {
  readonly apiId: string;
  readonly keyId: string;
  readonly identityId?: string;
  readonly externalId?: string;
  /** The verifyKey `code`: VALID, RATE_LIMITED, USAGE_EXCEEDED, … */
  readonly outcome: string;
  readonly tags?: readonly string[];
}

/**
 * One verification that reached the verification stage (the key was found and the root key may
 * verify it), for usage analytics. Written in batches off the request path.
 */
export interface VerificationRecord extends VerificationDimensions {
  /** Unix ms. */
  readonly time: number;
  readonly requestId: string;
  /** Credits taken by this verification (0 when none were). */
  readonly spentCredits: number;
  /** How long the verification took, in milliseconds (fractional); absent on older records. */
  readonly latency?: number;
}

/**
 * A record from the positional fields both stores keep (lmdb/verifications.ts, redis/
 * verifications.ts); absent optional fields stay absent. `latency` is null or missing on records
 * written before it was recorded.
 */
export function verificationRecord(time: number, requestId: string, apiId: string, keyId: string, identityId: string | null,
  externalId: string | null, outcome: string, tags: readonly string[] | null, spentCredits: number, latency: number | null | undefined): VerificationRecord {
  return {
    time, requestId, apiId, keyId, outcome, spentCredits,
    ...(identityId !== null ? { identityId } : {}),
    ...(externalId !== null ? { externalId } : {}),
    ...(tags !== null ? { tags } : {}),
    ...(latency !== null && latency !== undefined ? { latency } : {}),
  };
}

/** The time buckets verification records are rolled up into (UTC; storage/rollups.ts). */
export type RollupGranularity = 'minute' | 'hour' | 'day' | 'month';

/**
 * One row of a rollup: the verifications of one bucket that share every dimension (API, key,
 * identity, outcome, tags; the columns of Unkey's key_verifications_per_*_v1 tables), summed.
 */
export interface VerificationRollup extends VerificationDimensions {
  /** Start of the bucket, unix ms (UTC). */
  readonly time: number;
  readonly count: number;
  readonly spentCredits: number;
  /** Sum of the latencies of the records that carried one, and how many did. */
  readonly latencySum: number;
  readonly latencyCount: number;
}

/** An end-user permission (Unkey's Permission): keys are checked against its `slug`. */
export interface PermissionRecord {
  readonly id: string;
  readonly workspaceId: string;
  /** Free text, not unique. */
  readonly name: string;
  /** Unique per workspace, case-insensitively (`Admin` and `admin` collide). */
  readonly slug: string;
  readonly description?: string;
  readonly createdAt: number;
}

/** An end-user role: a named set of permissions. Keys reference roles by name. */
export interface RoleRecord {
  readonly id: string;
  readonly workspaceId: string;
  /** Unique per workspace, case-insensitively. */
  readonly name: string;
  readonly description?: string;
  /**
   * Ids (not slugs) of the role's permissions, so a permission is one record however it is
   * referenced. Deleting a permission removes its id here.
   */
  readonly permissionIds: readonly string[];
  readonly createdAt: number;
}
