/**
 * Root-key authentication: `Authorization: Bearer <root key>` → sha256 → lookup by hash.
 * Every failure (missing header, not Bearer, empty, unknown, revoked) is the same 401, so the
 * answer tells an attacker nothing about which root keys exist.
 */
import { ApiError } from '../errors/api-error.js';
import { hashKey } from '../keys/format.js';
import type { RootKeyStore } from '../storage/types.js';
import type { RootKeyRecord } from '../storage/records.js';
import type { Principal } from './permissions.js';

/**
 * Principals by record object: stores that hand out the same object while the record is unchanged
 * (the LMDB object cache, the distributed record cache) build each permission Set once. A changed
 * or revoked record is a new object, so nothing stale can come from here.
 */
const principals = new WeakMap<RootKeyRecord, Principal>();

const INVALID = 'The root key is invalid or revoked. Send a valid root key as `Authorization: Bearer <root key>`.';

export async function authenticate(rootKeys: RootKeyStore, authorization: string): Promise<Principal> {
  if (authorization === '') {
    throw new ApiError('err:keygate:authentication:unauthorized', 'The Authorization header is missing. Send a root key as `Authorization: Bearer <root key>`.');
  }
  const match = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!match) throw new ApiError('err:keygate:authentication:unauthorized', INVALID);
  const record = await rootKeys.findByHash(hashKey(match[1] as string));
  if (!record || record.revokedAt !== undefined) throw new ApiError('err:keygate:authentication:unauthorized', INVALID);
  return principalFor(record);
}

/** The caller a live root key record makes: the same object for the bearer and the dashboard's session path. */
export function principalFor(record: RootKeyRecord): Principal {
  let principal = principals.get(record);
  if (!principal) {
    principal = { rootKeyId: record.id, workspaceId: record.workspaceId, permissions: new Set(record.permissions) };
    principals.set(record, principal);
  }
  return principal;
}
