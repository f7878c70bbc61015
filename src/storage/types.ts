/**
 * Storage interfaces. Every backend (LMDB, Redis) implements all of them and passes the
 * same contract suite (test/contracts/storage.contract.ts). Routes and services speak only these.
 *
 * Common contract: methods resolve once the write is durable in the backend (acknowledged means
 * kept); "not found" resolves to null; a backend that cannot answer rejects with
 * ServiceUnavailableError. All methods are safe to call concurrently.
 *
 * Audit: a write method's optional `event` is stored in the same atomic write as the change, and
 * only when the method reports a change (resolves true, a record, or 'inserted'/'changed'):
 * src/audit/event.ts gives the rule for procedures that write more than once.
 */
import type { AuditEvent, AuditStore } from '../audit/event.js';
import type { SessionStore } from './sessions.js';
import type {
  ApiRecord, CreditsRecord, CreditsRefill, IdentityRecord, KeyRecord, MigrationRecord, VerificationRecord, NamespaceRecord, PermissionRecord, RatelimitOverrideRecord, RoleRecord, RootKeyRecord,
} from './records.js';
import type { RollupGranularity, VerificationRollup } from './records.js';
import type { RollupDelta } from './rollups.js';
import type { VerificationColumns } from './verification-columns.js';

/** Rejection for a uniqueness violation (hash, externalId, name). */
export class DuplicateError extends Error {
  constructor(readonly what: string) {
    super(`duplicate ${what}`);
    this.name = 'DuplicateError';
  }
}

export interface RootKeyStore {
  /** Inserts or replaces the record with this id (a replaced hash stops authenticating at once). */
  put(record: RootKeyRecord, event?: AuditEvent): Promise<void>;
  /** The live or revoked root key with this hash; callers check `revokedAt`. */
  findByHash(hash: string): Promise<RootKeyRecord | null>;
  get(id: string): Promise<RootKeyRecord | null>;
  /** All root keys, revoked ones included, oldest first. */
  list(): Promise<RootKeyRecord[]>;
  /** Marks the key revoked; resolves false when no such key exists. Idempotent. */
  revoke(id: string, atMs: number, event?: AuditEvent): Promise<boolean>;
  /** Removes the record entirely (the ROOT_KEY bootstrap key when the setting is removed). */
  remove(id: string, event?: AuditEvent): Promise<void>;
}

export interface ApiStore {
  insert(record: ApiRecord, event?: AuditEvent): Promise<void>;
  get(id: string): Promise<ApiRecord | null>;
  /** Soft-deletes: sets `deletedAt`. Resolves false when the API is unknown or already deleted. */
  markDeleted(id: string, atMs: number, event?: AuditEvent): Promise<boolean>;
  /** Live (not deleted) APIs of a workspace in id order from `cursor` (inclusive). */
  list(workspaceId: string, options: ListOptions): Promise<ApiRecord[]>;
}

export interface ListOptions {
  /** Inclusive lower bound on the record id (Unkey's cursor is the first id of the next page). */
  readonly cursor?: string;
  readonly limit: number;
}

/** Permissions and roles a change gives a key, as the caller looked them up. */
export interface Attaching {
  readonly permissions: readonly PermissionRecord[];
  readonly roles: readonly RoleRecord[];
}

/** How KeyStore.modifyAttaching ended. */
export type AttachOutcome =
  /** Applied (or nothing to change): the key as stored afterwards. */
  | { readonly kind: 'changed'; readonly key: KeyRecord }
  /** Some of `attaching` were deleted meanwhile (these, in the order given); the key names none of them. */
  | { readonly kind: 'deleted'; readonly deleted: Attaching }
  | { readonly kind: 'unknownKey' };

/** A key for KeyStore.insertAttaching: its record, its credits counter, and what the record names. */
export interface NewKey {
  readonly record: KeyRecord;
  readonly credits: CreditsRecord | null;
  /** The permissions and roles the record names, as the caller looked them up. */
  readonly attaching: Attaching;
  /** Stored with the key when it is inserted (each key of a batch has its own). */
  readonly event?: AuditEvent;
}

/**
 * What KeyStore.insertAttaching does with a key that names a permission or role deleted meanwhile:
 * 'refuse' stores nothing (a caller that answers 404 and never hands the key out); 'omit' stores
 * the key without them, as if the delete had come just after.
 */
export type IfDeleted = 'refuse' | 'omit';

/** How one key of KeyStore.insertAttaching ended. */
export type InsertOutcome =
  /** Stored. `omitted` ('omit' only): those of `attaching` deleted meanwhile, in the order given; the key names none of them. */
  | { readonly kind: 'inserted'; readonly omitted: Attaching }
  /** ('refuse' only) Not stored: these of `attaching` were deleted meanwhile, in the order given. */
  | { readonly kind: 'deleted'; readonly deleted: Attaching }
  /** Not stored: the hash or the id is taken (insert's DuplicateError). */
  | { readonly kind: 'duplicate'; readonly error: DuplicateError };

export interface KeyStore {
  /**
   * Inserts a key and, when `credits` is given, its credits counter, in one atomic write.
   * Rejects with DuplicateError('hash') if the hash is taken; never overwrites.
   */
  insert(record: KeyRecord, credits: CreditsRecord | null): Promise<void>;
  /**
   * insert, for new keys that name permissions or roles, several at once (one outcome each, in
   * order; they are committed in the order given). No key keeps a permission or role deleted after
   * the caller looked it up; `ifDeleted` says whether such a key is stored without it or not at
   * all. LMDB checks in each insert's own transaction. Redis cannot: it inserts, reads the records
   * of all the keys again in one batch, and takes the deleted ones off (or removes the key) again.
   * A permission or role whose delete has begun counts as deleted. Keys attaching nothing cost
   * what insert costs. Rejects (after the others are settled) on an error other than a duplicate.
   */
  insertAttaching(keys: readonly NewKey[], ifDeleted: IfDeleted): Promise<InsertOutcome[]>;
  findByHash(hash: string): Promise<KeyRecord | null>;
  get(id: string): Promise<KeyRecord | null>;
  /**
   * The credits counter as it stands now, null when the key is unlimited. Every credits method
   * first applies a refill that fell due since `lastRefillAt` (storage/refill.ts), atomically with
   * its own change; a counter with a refill but no `lastRefillAt` is never refilled.
   */
  getCredits(keyId: string): Promise<CreditsRecord | null>;
  /**
   * Atomically takes `cost` credits if at least that many remain (cost 0 always passes).
   * Never goes below zero. Resolves with the outcome and the remaining balance afterwards;
   * `remaining` is null when the key has no credits counter (unlimited).
   */
  spendCredits(keyId: string, cost: number): Promise<{ passed: boolean; remaining: number | null }>;
  /**
   * Replaces the key record (same id). If the hash changed, the index follows it; rejects with
   * DuplicateError('hash') if the new hash is taken. Credits are not touched.
   */
  update(record: KeyRecord): Promise<void>;
  /**
   * Atomic read-modify-write of one key record, for changes that must not lose a concurrent one
   * (adding a role while another request adds a permission). `change` gets the stored record and
   * returns its replacement (same id), or null to leave it untouched. It runs inside the backend's
   * write transaction, so it must be synchronous and free of side effects; a backend may call it
   * more than once (optimistic retries). A changed hash moves the hash index (DuplicateError('hash')
   * if taken); `hasCredits` is kept. Resolves the record as stored afterwards, null if unknown.
   */
  modify(id: string, change: (current: KeyRecord) => KeyRecord | null): Promise<KeyRecord | null>;
  /**
   * modify, for a change that attaches permissions or roles (`attaching`: the records as the caller
   * looked them up before). The key never keeps one that was deleted after that lookup: then the
   * outcome is 'deleted', naming them, and the key names none of them. LMDB checks and writes in
   * one transaction (nothing written); Redis cannot, so it writes, reads the records again, and
   * takes the deleted ones off the key again (the rest of the change stays). A permission or role
   * whose delete has begun counts as deleted.
   */
  modifyAttaching(id: string, attaching: Attaching, change: (current: KeyRecord) => KeyRecord | null, event?: AuditEvent): Promise<AttachOutcome>;
  /** Removes the key, its hash and its credits; it stops verifying at once. False if unknown. */
  delete(id: string, event?: AuditEvent): Promise<boolean>;
  /** Keys of one API in id order from `cursor` (inclusive); optionally only those of one identity. */
  listByApi(apiId: string, options: ListOptions & { identityId?: string }): Promise<KeyRecord[]>;
  /**
   * Sets the credits counter, or with null makes the key unlimited; keeps `hasCredits` of the
   * key record in step in the same write. False if the key is unknown.
   */
  setCredits(keyId: string, credits: CreditsRecord | null, event?: AuditEvent): Promise<boolean>;
  /**
   * Atomically adds `delta` (negative to take) to the remaining credits, never below zero.
   * Resolves the new counter, or null when the key has none (unlimited) or is unknown.
   */
  adjustCredits(keyId: string, delta: number, event?: AuditEvent): Promise<CreditsRecord | null>;
  /**
   * Atomically changes only the given parts of the credits counter, keeping the stored balance
   * when `remaining` is absent (so a concurrent spend is never overwritten by a stale value).
   * `refill: null` removes the refill. Creates the counter when the key has none and `remaining`
   * is given; otherwise a key without a counter is left unlimited. A new `refill` starts its
   * schedule now (`lastRefillAt`). Resolves the counter afterwards.
   */
  patchCredits(keyId: string, patch: { remaining?: number; refill?: CreditsRefill | null }, event?: AuditEvent): Promise<CreditsRecord | null>;
}

export interface IdentityStore {
  /** Rejects with DuplicateError('externalId') if a live identity has this externalId. */
  insert(record: IdentityRecord, event?: AuditEvent): Promise<void>;
  get(id: string): Promise<IdentityRecord | null>;
  findByExternalId(workspaceId: string, externalId: string): Promise<IdentityRecord | null>;
  /** Returns the identity with this externalId, inserting `create()` when there is none (atomic). */
  getOrCreate(workspaceId: string, externalId: string, create: () => IdentityRecord): Promise<IdentityRecord>;
  /** Replaces the identity record (same id and externalId); does nothing if it was deleted meanwhile. */
  update(record: IdentityRecord, event?: AuditEvent): Promise<void>;
  /**
   * Deletes the identity; its externalId is free again at once. Keys that pointed at it behave as
   * if they had no identity. False if unknown.
   */
  delete(id: string, event?: AuditEvent): Promise<boolean>;
  /** Identities of a workspace in id order from `cursor`; `search` matches id or externalId, case-insensitively. */
  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<IdentityRecord[]>;
}

export interface NamespaceStore {
  /** Looks a namespace up by id first, then by name. */
  find(workspaceId: string, nameOrId: string): Promise<NamespaceRecord | null>;
  /** Returns the namespace with this name, inserting `create()` when there is none (atomic). */
  getOrCreate(workspaceId: string, name: string, create: () => NamespaceRecord): Promise<NamespaceRecord>;
  /**
   * Soft-deletes: sets `deletedAt` (limits then answer 410, override procedures 404). No procedure
   * of Unkey's v2 API deletes a namespace; this is for operators. False if unknown or already deleted.
   */
  markDeleted(id: string, atMs: number): Promise<boolean>;
  /**
   * Live (not deleted) namespaces of a workspace in id order from `cursor` (inclusive); `search`
   * matches id or name, case-insensitively.
   */
  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<NamespaceRecord[]>;
}

/** What setOverride stores for one (namespace, identifier). */
export interface OverrideValues {
  readonly workspaceId: string;
  readonly namespaceId: string;
  readonly identifier: string;
  readonly limit: number;
  readonly duration: number;
}

/**
 * Rate-limit overrides of ratelimit namespaces. An override is identified by (namespaceId,
 * identifier), compared exactly and case-sensitively; `*` has no meaning here (pattern matching is
 * src/ratelimit/overrides.ts). Deletes are soft: a deleted override keeps its id for a later `set`.
 * "Live" means not deleted. Namespace ids are unique across workspaces, so lookups need no workspace.
 */
export interface OverrideStore {
  /**
   * Upsert on (namespaceId, identifier), atomically: an existing override, live or deleted, keeps
   * its id and createdAt, takes the new limit and duration, gets `updatedAt = atMs` and is live
   * again; otherwise a new one with id `newId` and `createdAt = atMs` is stored. Concurrent calls
   * for the same pair end with one override. Resolves the override as stored.
   */
  set(values: OverrideValues, atMs: number, newId: string, event?: AuditEvent): Promise<RatelimitOverrideRecord>;
  /** The override with this id, live or deleted (callers check `deletedAt`). */
  get(id: string): Promise<RatelimitOverrideRecord | null>;
  /** The live override whose identifier equals `identifier` exactly (a pattern only matches itself). */
  findExact(namespaceId: string, identifier: string): Promise<RatelimitOverrideRecord | null>;
  /**
   * The live overrides of the namespace whose identifier contains `*`, in id order. Backends keep
   * them apart from exact ones, so this costs the number of patterns, not of overrides: it runs
   * on the ratelimit.limit hot path.
   */
  wildcards(namespaceId: string): Promise<RatelimitOverrideRecord[]>;
  /** Live overrides of the namespace in id order from `cursor` (inclusive). */
  list(namespaceId: string, options: ListOptions): Promise<RatelimitOverrideRecord[]>;
  /** Soft-deletes the live override with exactly this identifier. False if there is none. */
  delete(namespaceId: string, identifier: string, atMs: number, event?: AuditEvent): Promise<boolean>;
}

/**
 * End-user permissions (RBAC for the customer's own keys). Slugs are unique per workspace,
 * case-insensitively: `Admin` and `admin` are the same permission. Keys reference permissions by
 * slug (KeyRecord.permissions), roles by id (RoleRecord.permissionIds).
 */
export interface PermissionStore {
  /** Rejects with DuplicateError('slug') if the workspace has a permission with this slug (any case). */
  insert(record: PermissionRecord, event?: AuditEvent): Promise<void>;
  get(id: string): Promise<PermissionRecord | null>;
  /** The permission of the workspace with this slug, compared case-insensitively. */
  findBySlug(workspaceId: string, slug: string): Promise<PermissionRecord | null>;
  /** Looks a permission of the workspace up by id first, then by slug. */
  find(workspaceId: string, idOrSlug: string): Promise<PermissionRecord | null>;
  /**
   * The permissions with these slugs, in the order given (case-insensitive duplicates collapse to
   * the first), inserting `create(slug)` for each missing one, all in one atomic write: concurrent
   * callers get one record per slug.
   */
  getOrCreateMany(workspaceId: string, slugs: readonly string[], create: (slug: string) => PermissionRecord): Promise<PermissionRecord[]>;
  /** Permissions of a workspace in id order from `cursor` (inclusive); `search` matches id, name, slug or description, case-insensitively. */
  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<PermissionRecord[]>;
  /**
   * Hard delete, in one atomic write: the slug is free again, the permission leaves every role, and
   * every key of the workspace loses it as a direct permission, so verification stops granting it
   * at once. A key change or a new key attaching it meanwhile (modifyAttaching, insertAttaching)
   * does not keep it. False if unknown.
   */
  delete(id: string, event?: AuditEvent): Promise<boolean>;
}

/** End-user roles. Names are unique per workspace, case-insensitively; keys reference roles by name. */
export interface RoleStore {
  /** Rejects with DuplicateError('name') if the workspace has a role with this name (any case). */
  insert(record: RoleRecord, event?: AuditEvent): Promise<void>;
  get(id: string): Promise<RoleRecord | null>;
  /** The role of the workspace with this name, compared case-insensitively. */
  findByName(workspaceId: string, name: string): Promise<RoleRecord | null>;
  /** Looks a role of the workspace up by id first, then by name. */
  find(workspaceId: string, idOrName: string): Promise<RoleRecord | null>;
  /** Roles of a workspace in id order from `cursor` (inclusive); `search` matches id, name or description, case-insensitively. */
  list(workspaceId: string, options: ListOptions & { search?: string }): Promise<RoleRecord[]>;
  /**
   * Replaces the role's permissions (ids, de-duplicated, order kept) atomically. Resolves the
   * updated role, or null if the role is unknown.
   */
  setPermissions(roleId: string, permissionIds: readonly string[], event?: AuditEvent): Promise<RoleRecord | null>;
  /** The role's permissions that still exist, in the role's order. */
  permissionsOf(role: RoleRecord): Promise<PermissionRecord[]>;
  /**
   * Slugs granted through these role names (unknown names and deleted permissions are skipped),
   * de-duplicated: a key's role-derived permissions, resolved at read time.
   */
  slugsOfRoles(workspaceId: string, roleNames: readonly string[]): Promise<string[]>;
  /**
   * Hard delete, in one atomic write: the name is free again and every key of the workspace loses
   * the role (and with it the role's permissions) at once. The permissions stay. A key change or a
   * new key attaching it meanwhile (modifyAttaching, insertAttaching) does not keep it. False if unknown.
   */
  delete(id: string, event?: AuditEvent): Promise<boolean>;
}

/** Key migrations (operator-created; keys.migrateKeys and verifyKey's `migrationId` refer to them). */
export interface MigrationStore {
  /** Rejects with DuplicateError('id') if the id is taken. */
  insert(record: MigrationRecord, event?: AuditEvent): Promise<void>;
  get(id: string): Promise<MigrationRecord | null>;
  /** Every migration, oldest first. */
  list(): Promise<MigrationRecord[]>;
}

/** Which part of a time-ordered scan one page call reads. */
export interface ScanOptions {
  /** Inclusive lower bound on the time (for rollups: on the bucket start), unix ms. */
  readonly fromMs?: number;
  /** Exclusive upper bound. */
  readonly toMs?: number;
  /** How many rows a page should hold (a hint for rollups: a backend may page by whole buckets). */
  readonly limit: number;
  /** The `cursor` of the previous page; absent for the first page. */
  readonly cursor?: string;
}

/** One page of a scan; `cursor` continues it, null when nothing follows. */
export interface ScanPage<T> {
  readonly items: T[];
  readonly cursor: string | null;
}

/**
 * Verification records, kept in time order and bounded: once more than the retained number are
 * stored, the oldest are dropped. Appends are batched by the caller (analytics/recorder.ts).
 *
 * Every record is also added to rollups per UTC minute, hour, day and month (storage/rollups.ts):
 * one row per bucket and combination of dimensions, with the count, spent credits and latency
 * sums. Dropping old records leaves the rollups as they are; rollup buckets are removed only by
 * pruneRollups.
 */
/**
 * How long a caller may try a refused append again with the same call id and still have it
 * applied once (appendColumns); a store remembers an append's id at least this long.
 */
export const APPEND_RETRY_MS = 10 * 60_000;

export interface VerificationStore {
  /**
   * Stores the records and adds the rollup increments in one atomic write (a backend may split a
   * large batch into several such writes), then drops the oldest records beyond the bound.
   * `rollups` defaults to the records' own increments (rollups.ts, rollupDeltas); the recorder
   * passes its own to hold back the hour, day and month ones (analytics/recorder.ts).
   */
  append(records: readonly VerificationRecord[], rollups?: readonly RollupDelta[]): Promise<void>;
  /**
   * The same for records in columns (verification-columns.ts): what the recorder hands over.
   * `callId`: the same id when a failed append is tried again; a store whose failed append may
   * still have been applied (a Redis call that timed out) applies it once in all.
   */
  appendColumns(columns: VerificationColumns, rollups?: readonly RollupDelta[], callId?: string): Promise<void>;
  /** Records with fromMs ≤ time < toMs (either bound optional), oldest first, at most `limit`. */
  range(options: { fromMs?: number; toMs?: number; limit: number }): Promise<VerificationRecord[]>;
  /**
   * The same records page by page, so a long range is never read at once: oldest first, each
   * record exactly once across the pages of one scan (records of one millisecond included).
   */
  scan(options: ScanOptions): Promise<ScanPage<VerificationRecord>>;
  /**
   * Rollup rows of the buckets that start in [fromMs, toMs), page by page in bucket order (rows
   * of one bucket in no particular order); each row exactly once across the pages of one scan.
   */
  scanRollups(granularity: RollupGranularity, options: ScanOptions): Promise<ScanPage<VerificationRollup>>;
  /** Removes every rollup row of the buckets of `granularity` that start before `beforeMs`. */
  pruneRollups(granularity: RollupGranularity, beforeMs: number): Promise<void>;
  /** How many records are kept now. */
  count(): Promise<number>;
  /**
   * Makes what another thread of this process committed (the analytics writer) visible to this
   * thread's next read. Absent where reads always see the latest writes.
   */
  seeOtherThreadsWrites?(): void;
}

export interface Storage {
  readonly rootKeys: RootKeyStore;
  readonly apis: ApiStore;
  readonly keys: KeyStore;
  readonly identities: IdentityStore;
  readonly namespaces: NamespaceStore;
  readonly overrides: OverrideStore;
  readonly migrations: MigrationStore;
  readonly verifications: VerificationStore;
  readonly permissions: PermissionStore;
  readonly roles: RoleStore;
  /** Dashboard sign-ins (sessions.ts): kept across restarts, the same on every replica. */
  readonly sessions: SessionStore;
  /** Audit events (src/audit/event.ts): listed and pruned here, written by the other stores' writes. */
  readonly audit: AuditStore;
  /** Flushes pending writes and releases files or connections. */
  close(): Promise<void>;
}
