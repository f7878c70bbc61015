/**
 * The distributed backend: every record in Redis or Redis Cluster, msgpack-encoded
 * (src/redis/codec.ts), behind the same storage interfaces as LMDB and through the same contract
 * suites. Key layout: keys.ts. Every operation runs through `guarded`, so a Redis that cannot
 * answer rejects with ServiceUnavailableError (a 503).
 *
 * Atomicity. What must change together shares a hash tag (one slot) and changes in one Lua
 * script: a key record and its credits counter are one hash; credits are read and changed by
 * lua/credits-change.lua (refill rule of src/storage/refill.ts). Read-modify-write (modify,
 * markDeleted, revoke, setPermissions, …) is optimistic: read record and version, decide, write
 * with lua/record-cas.lua only if the version is unchanged, else retry (record-io.ts).
 *
 * Crash ordering. Unique indexes and listings live in other slots than their records, so a
 * write that touches them is several steps; they are ordered so that a crash between any two
 * leaves nothing visible that is half made:
 *  1. The record is the commit point. Whatever points at a record (a unique index entry, a
 *     listing entry) is written before the record and removed after it.
 *  2. Readers trust an index or listing entry only when the record it names exists and agrees
 *     with it (same hash, externalId, slug, API, namespace; live where that matters); otherwise
 *     the entry reads as absent. So a crash leaves at most entries that are invisible garbage.
 *  3. Insert: claim the unique index entry first (index-claim.lua: set if absent, or already
 *     ours), then add listing entries, then write the record. A retried insert of the same id
 *     takes its own entry back. Another id may take over an entry only when its record does not
 *     agree and the claim is older than a lease (unique-index.ts, 5 s), so a write still in
 *     flight is never robbed; a writer re-claims if its own claim got older than half the lease
 *     before its record write.
 *  4. Change of a unique value (a key's hash): claim the new value, write the record, release the
 *     old value. Release removes an entry only if it still names the record's id.
 *  5. Delete: delete the record, then remove its listing entries, then release its index entries.
 *  6. A change that must reach many records (permission or role delete strips keys and roles)
 *     marks its own record, changes those records, and deletes its own record last: a crash leaves
 *     the permission or role in place, held by fewer keys, and a retried delete finishes the job.
 *     A key change or a new key attaching it meanwhile reads the mark after its write and undoes
 *     that part (attach.ts, insert-attaching.ts).
 */
import type { RedisClient } from '../../redis/client.js';
import { guardedStore } from '../../redis/client.js';
import type { ReplicaWait } from '../../redis/replica-wait.js';
import type { Storage } from '../types.js';
import { RedisApiStore } from './apis.js';
import { RedisAuditLog } from './audit.js';
import { RedisIdentityStore } from './identities.js';
import { RedisKeyStore, type KeyWrites } from './key-store.js';
import { storageKeys } from './keys.js';
import { RedisMigrationStore } from './migrations.js';
import { RedisNamespaceStore } from './namespaces.js';
import { RedisOverrideStore } from './overrides.js';
import { RedisPermissionStore } from './permissions.js';
import { RecordIo } from './record-io.js';
import { RedisRoleStore } from './roles.js';
import { RedisRootKeyStore } from './root-keys.js';
import { UniqueIndex } from './unique-index.js';
import { RedisSessionStore } from './sessions.js';
import { RedisVerificationStore } from './verifications.js';

export interface RedisStorageOptions {
  /** Prepended to every key (REDIS_KEY_PREFIX), so deployments and tests can share a Redis; no braces. */
  readonly keyPrefix: string;
  /** Verification records kept before the oldest are dropped (default 1,000,000). */
  readonly verificationsRetained?: number;
  /** The clock credit refills are decided by; tests inject one. */
  readonly now?: () => number;
  /**
   * Key-record writes wait for the masters' replicas (WAIT) on `writer`, a connection used for
   * nothing else, since WAIT blocks the connection it is sent on. Absent: no waiting.
   */
  readonly keyWrites?: { readonly writer: RedisClient; readonly wait: ReplicaWait };
}

/**
 * Storage on a Redis client the caller made (createRedis) and keeps: `close()` does not
 * disconnect it, because the same client may serve other parts of the service, and the caller
 * that opened it closes it (after closing this storage). Writes resolve once Redis acknowledged
 * them (key records: and once the replicas did, with `keyWrites`); how durable that is depends on
 * the server's persistence (AOF) settings.
 */
export function openRedisStorage(client: RedisClient, options: RedisStorageOptions): Storage {
  const k = storageKeys(options.keyPrefix);
  const audit = new RedisAuditLog(client, options.keyPrefix);
  const io = new RecordIo(client, audit);
  const index = new UniqueIndex(client);
  const waits = options.keyWrites;
  const keyWrites: KeyWrites = waits
    ? { client: waits.writer, io: new RecordIo(waits.writer, audit), index: new UniqueIndex(waits.writer), afterWrite: (written) => waits.wait.after(written) }
    : { client, io, index, afterWrite: async () => {} };
  const keys = new RedisKeyStore(client, k, io, index, options.now ?? Date.now, keyWrites);
  return {
    rootKeys: guardedStore(new RedisRootKeyStore(client, k, io, index)),
    apis: guardedStore(new RedisApiStore(client, k, io)),
    keys: guardedStore(keys),
    identities: guardedStore(new RedisIdentityStore(client, k, io, index)),
    namespaces: guardedStore(new RedisNamespaceStore(client, k, io, index)),
    permissions: guardedStore(new RedisPermissionStore(client, k, io, index, keys)),
    roles: guardedStore(new RedisRoleStore(client, k, io, index, keys)),
    overrides: guardedStore(new RedisOverrideStore(client, k, io, index)),
    migrations: guardedStore(new RedisMigrationStore(client, k, io)),
    verifications: guardedStore(new RedisVerificationStore(client, k, options.verificationsRetained ?? 1_000_000)),
    sessions: guardedStore(new RedisSessionStore(client, k)),
    audit: guardedStore(audit),
    async close() {
      // Nothing is buffered here (every write was acknowledged) and the client is the caller's.
    },
  };
}
