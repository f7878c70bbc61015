/**
 * Redis storage keys: the only place they are spelled. Every key is
 *
 *   <prefix><area>:{<tag>}:<rest>
 *
 * and Redis Cluster places it by `<tag>` alone, so what must change in one atomic step shares a
 * tag (one slot): a key record and its credits are one hash; a unique index entry sits in the slot
 * of the value it makes unique; a listing sits in the slot of what it lists by (API, workspace,
 * namespace). Writes that span slots are ordered as described in open.ts.
 *
 * Tags: ids are used as they are when they are plain tokens (keygate's ids are `<prefix>_<base58>`),
 * anything else is hashed (`#` + SHA-256), because a `{` or `}` inside a tag, or an empty tag, would
 * move keys of one record to different slots. User-supplied values (key hashes, externalIds, slugs,
 * role names, namespace names, override identifiers) are always hashed: they may be long, contain
 * braces or control characters, and must not let a caller choose a slot.
 */
import { createHash } from 'node:crypto';
import { overrideIndexTag } from '../../redis/tags.js';

const PLAIN_TOKEN = /^[A-Za-z0-9_.-]{1,100}$/;

export const digest = (value: string): string => createHash('sha256').update(value).digest('hex');

/** An id as a hash tag; `#` never occurs in a plain token, so the two forms cannot meet. */
export const idTag = (id: string): string => (PLAIN_TOKEN.test(id) ? id : `#${digest(id)}`);

/** A value unique within a scope (workspace, namespace); NUL occurs in neither part. */
const scoped = (scope: string, value: string): string => digest(`${scope}\u0000${value}`);

/** Slugs and role names are unique case-insensitively, so their index is keyed by the folded value. */
export const folded = (value: string): string => value.toLowerCase();

export type StorageKeys = ReturnType<typeof storageKeys>;

/**
 * The key builders for one deployment. `prefix` separates deployments (and tests) sharing a Redis;
 * it must not contain braces, or every key would share the prefix's tag and one slot.
 */
export function storageKeys(prefix: string) {
  if (/[{}]/.test(prefix)) throw new Error(`the Redis key prefix must not contain '{' or '}' (got ${JSON.stringify(prefix)})`);
  const k = (area: string, tag: string, rest: string): string => `${prefix}${area}:{${tag}}:${rest}`;
  return {
    /** Hash {r: record, v: version} (record-io.ts). */
    rootKey: (id: string) => k('rootkey', idTag(id), 'rec'),
    /** String `<id>|<claimedAtMs>` (unique-index.ts). */
    rootKeyByHash: (hash: string) => k('rootkey-hash', digest(hash), 'id'),
    /** Hash of one dashboard session, by the digest of its id; expires with the session (sessions.ts). */
    session: (sessionDigest: string) => k('session', idTag(sessionDigest), 'rec'),
    /** Sorted set of one root key's session digests, scored by creation time (sessions.ts). */
    sessionsOf: (rootKeyHash: string) => k('session-rk', digest(rootKeyHash), 'ids'),
    /** Sorted set of every root key id (score 0); few, so list() reads them all. */
    rootKeyIds: k('rootkey-all', 'rootkeys', 'ids'),

    api: (id: string) => k('api', idTag(id), 'rec'),
    /** Sorted set (score 0) of a workspace's live API ids: apis.listApis in id order. */
    apisOf: (workspaceId: string) => k('api-ws', idTag(workspaceId), 'ids'),

    /** Hash {r, v} plus the credits fields of credits-change.lua: record and counter change together. */
    key: (id: string) => k('key', idTag(id), 'rec'),
    keyByHash: (hash: string) => k('key-hash', digest(hash), 'id'),
    /** Sorted set (score 0) of the key ids of one API: listByApi in id order. */
    keysOfApi: (apiId: string) => k('key-api', idTag(apiId), 'ids'),
    /** Set of the API ids that have keys in a workspace: how permission and role deletes reach every key. */
    apisWithKeys: (workspaceId: string) => k('key-ws', idTag(workspaceId), 'apis'),

    identity: (id: string) => k('identity', idTag(id), 'rec'),
    identityByExternalId: (workspaceId: string, externalId: string) => k('identity-ext', scoped(workspaceId, externalId), 'id'),
    identitiesOf: (workspaceId: string) => k('identity-ws', idTag(workspaceId), 'ids'),

    namespace: (id: string) => k('ns', idTag(id), 'rec'),
    namespaceByName: (workspaceId: string, name: string) => k('ns-name', scoped(workspaceId, name), 'id'),
    /** Sorted set (score 0) of a workspace's live namespace ids: ratelimit.listNamespaces in id order. */
    namespacesOf: (workspaceId: string) => k('ns-ws', idTag(workspaceId), 'ids'),

    permission: (id: string) => k('perm', idTag(id), 'rec'),
    permissionBySlug: (workspaceId: string, slug: string) => k('perm-slug', scoped(workspaceId, folded(slug)), 'id'),
    permissionsOf: (workspaceId: string) => k('perm-ws', idTag(workspaceId), 'ids'),

    role: (id: string) => k('role', idTag(id), 'rec'),
    roleByName: (workspaceId: string, name: string) => k('role-name', scoped(workspaceId, folded(name)), 'id'),
    rolesOf: (workspaceId: string) => k('role-ws', idTag(workspaceId), 'ids'),

    override: (id: string) => k('override', idTag(id), 'rec'),
    /**
     * Deleted overrides keep their entry: a later set revives the record with its id. Tagged by
     * one of 16 buckets chosen by the identifier, on the master of the identifier's counters on
     * an evenly split Cluster (redis/tags.ts).
     */
    overrideByIdentifier: (namespaceId: string, identifier: string) => k('override-ident', overrideIndexTag(identifier), `${scoped(namespaceId, identifier)}:id`),
    /** Sorted sets (score 0) of a namespace's live overrides, and of its live patterns only. */
    overridesOf: (namespaceId: string) => k('override-ns', idTag(namespaceId), 'live'),
    wildcardsOf: (namespaceId: string) => k('override-ns', idTag(namespaceId), 'wildcards'),

    migration: (id: string) => k('migration', idTag(id), 'rec'),
    migrationIds: k('migration-all', 'migrations', 'ids'),

    /** Sorted set of record blocks by their first time (verifications.ts), its sequence counter and record count, one slot. */
    verifications: k('verification', 'log', 'records'),
    verificationSequence: k('verification', 'log', 'seq'),
    verificationCount: k('verification', 'log', 'count'),
    /**
     * Rollups, in the slot of the log so one script call appends records and their rollups: a hash
     * per bucket (fields per dimensions digest, verifications.ts) and a sorted set of the bucket
     * starts of each granularity.
     */
    verificationRollup: (granularity: string, bucket: number) => k('verification', 'log', `rollup:${granularity}:${bucket}`),
    verificationRollupBuckets: (granularity: string) => k('verification', 'log', `rollup:${granularity}:buckets`),
  };
}
