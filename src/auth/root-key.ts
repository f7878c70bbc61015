/**
 * Root-key authentication: `Authorization: Bearer <root key>` → sha256 → lookup by hash.
 * Every failure (missing header, not Bearer, empty, unknown, revoked) is the same 401, so the
 * answer tells an attacker nothing about which root keys exist.
 */
import { ApiError } from '../errors/api-error.js';
import { hashKey } from '../keys/format.js';
import { intern } from '../util/intern.js';
import type { RootKeyStore } from '../storage/types.js';
import type { RootKeyRecord } from '../storage/records.js';
import type { Principal } from './permissions.js';
import type { ChangeFeed } from '../cache/change-feed.js';

/**
 * Principals by record object: stores that hand out the same object while the record is unchanged
 * (the LMDB object cache, the distributed record cache) build each permission Set once. A changed
 * or revoked record is a new object, so nothing stale can come from here.
 */
const principals = new WeakMap<RootKeyRecord, Principal>();

const INVALID = 'The root key is invalid or revoked. Send a valid root key as `Authorization: Bearer <root key>`.';

export async function authenticate(rootKeys: RootKeyStore, authorization: string): Promise<Principal> {
  return principalFor(await findLiveRootKey(rootKeys, authorization));
}

async function findLiveRootKey(rootKeys: RootKeyStore, authorization: string): Promise<RootKeyRecord> {
  if (authorization === '') {
    throw new ApiError('err:keygate:authentication:unauthorized', 'The Authorization header is missing. Send a root key as `Authorization: Bearer <root key>`.');
  }
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) throw new ApiError('err:keygate:authentication:unauthorized', INVALID);
  const record = await rootKeys.findByHash(hashKey(match[1] as string));
  if (!record || record.revokedAt !== undefined) throw new ApiError('err:keygate:authentication:unauthorized', INVALID);
  return record;
}

/** Authorization values remembered at most; past it the memory starts afresh. */
const REMEMBERED_MAX = 10_000;

/** A remembered principal and when it must be looked up again (Infinity: only on a change). */
interface Remembered { readonly principal: Principal; readonly expiresAtMs: number }

export interface RootKeyMemoryOptions {
  /**
   * Where changes travel over pub/sub: a principal is looked up again after this long, so a
   * revocation whose message never went out still ends (as the record cache's entries do).
   */
  readonly ttlMs?: number;
}

/**
 * Bearer authentication that remembers, per Authorization value, the principal it resolved to: a
 * client sends the same header with every call, so the root key is hashed and looked up once. Only
 * successes are remembered, and all of them are forgotten when any root key changes anywhere (the
 * backend's change feed), so a revocation stops its key at once here, within a few milliseconds
 * when the CLI made it, within the pub/sub delay in distributed mode, and within `ttlMs` there
 * should its message be lost. Without a live feed nothing is remembered.
 */
export class RootKeyAuthenticator {
  private readonly remembered = new Map<string, Remembered>();
  /** Bumped by every change: a lookup that started before it must not be remembered. */
  private generation = 0;

  constructor(private readonly rootKeys: RootKeyStore, private readonly feed: ChangeFeed, private readonly options: RootKeyMemoryOptions = {}) {
    feed.listen((change) => {
      if (change.kind !== 'rootKeys' && change.kind !== 'everything') return;
      this.generation++;
      this.remembered.clear();
    });
  }

  /** The principal at once when remembered, else a promise of it (rejected with the 401). */
  authenticate(authorization: string): Principal | Promise<Principal> {
    this.feed.catchUp();
    if (this.feed.live) {
      const remembered = this.remembered.get(authorization);
      if (remembered !== undefined && (remembered.expiresAtMs === Infinity || Date.now() < remembered.expiresAtMs)) return remembered.principal;
    }
    return this.load(authorization);
  }

  private async load(authorization: string): Promise<Principal> {
    const generation = this.generation;
    // Counted from before the lookup, so what it read is not used for longer than ttlMs.
    const expiresAtMs = this.options.ttlMs === undefined ? Infinity : Date.now() + this.options.ttlMs;
    const principal = principalFor(await findLiveRootKey(this.rootKeys, authorization));
    if (generation === this.generation && this.feed.live) {
      if (this.remembered.size >= REMEMBERED_MAX) this.remembered.clear();
      this.remembered.set(authorization, { principal, expiresAtMs });
    }
    return principal;
  }
}

/** The caller a live root key record makes: the same object for the bearer and the dashboard's session path. */
export function principalFor(record: RootKeyRecord): Principal {
  let principal = principals.get(record);
  if (!principal) {
    principal = { rootKeyId: record.id, rootKeyName: record.name, workspaceId: intern(record.workspaceId), permissions: new Set(record.permissions) };
    principals.set(record, principal);
  }
  return principal;
}
