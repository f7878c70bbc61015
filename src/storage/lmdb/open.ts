/**
 * The embedded backend: one LMDB environment under DATA_DIR, one named database per record kind
 * plus unique indexes. lmdb-js encodes values with msgpackr. Writes resolve after LMDB commits
 * and flushes them, so an acknowledged write survives SIGKILL. Several processes (the server and
 * the `keygate root-key` CLI) may open the same folder at once; LMDB coordinates them.
 */
import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Storage } from '../types.js';
import { LmdbRootKeyStore } from './root-keys.js';
import { LmdbApiStore } from './apis.js';
import { LmdbKeyStore } from './keys.js';
import { LmdbIdentityStore } from './identities.js';
import { LmdbNamespaceStore } from './namespaces.js';
import { LmdbPermissionStore } from './permissions.js';
import { LmdbRoleStore } from './roles.js';
import { LmdbOverrideStore } from './overrides.js';
import { LmdbMigrationStore } from './migrations.js';
import { LmdbVerificationStore } from './verifications.js';
import { LmdbSessionStore } from './sessions.js';
import { LmdbChangeFeed, useChangeSignal } from './changes.js';
import { ChangeSignal } from './change-signal.js';
import { LmdbAuditStore } from './audit.js';
import type { ChangeFeed } from '../../cache/change-feed.js';

/** The named databases. Index databases map a unique value to a record id. */
export interface LmdbTables {
  readonly root: RootDatabase;
  readonly rootKeys: Database;
  readonly rootKeyByHash: Database<string, string>;
  readonly apis: Database;
  readonly keys: Database;
  readonly keyByHash: Database<string, string>;
  /** `<apiId>/<keyId>` → keyId: listing an API's keys in id order. */
  readonly keyByApi: Database<string, string>;
  readonly credits: Database;
  readonly identities: Database;
  readonly identityByExternalId: Database<string, string>;
  readonly namespaces: Database;
  readonly namespaceByName: Database<string, string>;
  readonly permissions: Database;
  /** `<workspaceId>\0<lower-cased slug>` → permission id. */
  readonly permissionBySlug: Database<string, string>;
  readonly roles: Database;
  /** `<workspaceId>\0<lower-cased name>` → role id. */
  readonly roleByName: Database<string, string>;
  /** Rate-limit overrides; their indexes are described in overrides.ts. */
  readonly overrides: Database;
  readonly overrideByIdentifier: Database<string, string>;
  readonly overrideByNamespace: Database<string, string>;
  readonly overrideWildcards: Database<string, string>;
  readonly migrations: Database;
  /** [first time, sequence] → a block of verification records, or one older record (verifications.ts). */
  readonly verifications: Database;
  /** Name → number: the count of verification records kept (verifications.ts). */
  readonly counters: Database;
  /** [granularity, bucket start, dimensions digest] → rollup row tuple (verifications.ts). */
  readonly verificationRollups: Database;
  /** Sequence-numbered log of changes to what verification reads (changes.ts). */
  readonly changes: Database;
  /** Dashboard sessions: digest of the session id → session; root key hash → its digests (sessions.ts). */
  readonly sessions: Database;
  readonly sessionsByRootKey: Database;
  /** Audit events by id (audit.ts), written in the transaction of the change they describe. */
  readonly audit: Database;
}

export interface LmdbStorageOptions {
  /** The clock credit refills are decided by; tests inject one. */
  readonly now?: () => number;
  /** Verification records kept before the oldest are dropped (default 1,000,000). */
  readonly verificationsRetained?: number;
}

export function openLmdbStorage(dataDir: string, options: LmdbStorageOptions = {}): Storage & { readonly changes: ChangeFeed } {
  mkdirSync(dataDir, { recursive: true });
  // noSubdir is explicit: lmdb guesses it from the path, and would take a folder named like
  // `keygate.data` (or mktemp's /tmp/tmp.XXXX) for a file and fail with "Is a directory".
  const root = open({ path: dataDir, name: undefined, maxDbs: 32, noSubdir: false }) as RootDatabase;
  // Shared structures: record layouts are stored once per database and cached, instead of being
  // written into every value and rebuilt on every read (verifyKey reads records on every call).
  // Values written without them are still read as they are.
  //
  // The object cache hands out the same decoded record while it is unchanged; `validated` checks
  // that against the stored bytes on every read, so writes by another process (the CLI revoking a
  // root key) are seen at once. lmdb caches this process's own writes without the transaction id
  // that check needs, and would hand them out unchecked forever: `cachePuts = false` leaves a
  // written record out of the cache, and its next read caches it with its transaction id.
  const db = (name: string): Database => {
    const store = root.openDB({ name, encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures'), cache: { validated: true } });
    (store as Database & { cachePuts: boolean }).cachePuts = false;
    return store;
  };
  const index = (name: string): Database<string, string> => root.openDB<string, string>({ name, encoding: 'string' });
  const t: LmdbTables = {
    root,
    rootKeys: db('root_keys'),
    rootKeyByHash: index('root_key_by_hash'),
    apis: db('apis'),
    keys: db('keys'),
    keyByHash: index('key_by_hash'),
    keyByApi: index('key_by_api'),
    credits: db('credits'),
    identities: db('identities'),
    identityByExternalId: index('identity_by_external_id'),
    namespaces: db('namespaces'),
    namespaceByName: index('namespace_by_name'),
    permissions: db('permissions'),
    permissionBySlug: index('permission_by_slug'),
    roles: db('roles'),
    roleByName: index('role_by_name'),
    overrides: db('ratelimit_overrides'),
    overrideByIdentifier: index('override_by_identifier'),
    overrideByNamespace: index('override_by_namespace'),
    overrideWildcards: index('override_wildcards'),
    migrations: db('migrations'),
    // No object cache: records are written in bulk and read only by analytics scans.
    verifications: root.openDB({ name: 'verifications', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') }),
    verificationRollups: root.openDB({ name: 'verification_rollups', encoding: 'msgpack' }),
    counters: root.openDB({ name: 'counters', encoding: 'msgpack' }),
    changes: root.openDB({ name: 'changes', encoding: 'msgpack' }),
    sessions: root.openDB({ name: 'dashboard_sessions', encoding: 'msgpack' }),
    sessionsByRootKey: root.openDB({ name: 'dashboard_sessions_by_root_key', encoding: 'msgpack' }),
    audit: root.openDB({ name: 'audit_events', encoding: 'msgpack' }),
  };
  const signal = ChangeSignal.open(dataDir);
  useChangeSignal(t.changes, signal);
  let closed = false;
  return {
    rootKeys: new LmdbRootKeyStore(t),
    apis: new LmdbApiStore(t),
    keys: new LmdbKeyStore(t, options.now),
    identities: new LmdbIdentityStore(t),
    namespaces: new LmdbNamespaceStore(t),
    permissions: new LmdbPermissionStore(t),
    roles: new LmdbRoleStore(t),
    overrides: new LmdbOverrideStore(t),
    migrations: new LmdbMigrationStore(t),
    verifications: new LmdbVerificationStore(t, options.verificationsRetained ?? 1_000_000),
    changes: new LmdbChangeFeed(t.changes, signal),
    sessions: new LmdbSessionStore(t),
    audit: new LmdbAuditStore(t.root, t.audit),
    async close() {
      // Idempotent: shutdown paths may close twice.
      if (closed) return;
      closed = true;
      await root.flushed;
      await root.close();
      signal.close();
    },
  };
}

/** Index keys that combine a workspace and a user-chosen value; the NUL cannot occur in either. */
export const scoped = (workspaceId: string, value: string): string => `${workspaceId}\u0000${value}`;

/**
 * Returns the record an index points at, or inserts `create()` and indexes it, atomically: the
 * index is read again inside the write transaction, so concurrent callers get one record.
 */
export async function getOrInsert<T extends { id: string }>(
  t: LmdbTables, records: Database, index: Database<string, string>, indexKey: string, create: () => T,
  inserted?: (record: T) => void,
): Promise<T> {
  const id = index.get(indexKey);
  if (id !== undefined) return records.get(id) as T;
  return t.root.transaction(() => {
    const again = index.get(indexKey);
    if (again !== undefined) return records.get(again) as T;
    const record = create();
    records.put(record.id, record);
    index.put(indexKey, record.id);
    inserted?.(record);
    return record;
  });
}
