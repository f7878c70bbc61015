/**
 * The lookup every key procedure starts with (getKey, updateKey, updateCredits, deleteKey,
 * rerollKey; whoami by hash). A key is live when it exists, belongs to the caller's workspace and
 * its API is not soft-deleted; anything else is the same 404, so nothing about it leaks.
 * The permission check follows the lookup because the acceptable tuples name the key's API.
 */
import type { Principal } from '../../auth/permissions.js';
import { ApiError } from '../../errors/api-error.js';
import type { Services } from '../../wiring/services.js';
import type { KeyRecord } from '../../storage/records.js';

/** Unkey's detail for a keyId that does not resolve to a live key. */
export const KEY_NOT_FOUND = 'We could not find the requested key.';

export async function liveKey(services: Services, principal: Principal, key: KeyRecord | null, detail = KEY_NOT_FOUND): Promise<KeyRecord> {
  if (key && key.workspaceId === principal.workspaceId) {
    const api = await services.storage.apis.get(key.apiId);
    if (api && api.deletedAt === undefined) return key;
  }
  throw new ApiError('err:unkey:data:key_not_found', detail);
}

export async function findLiveKey(services: Services, principal: Principal, keyId: string, detail = KEY_NOT_FOUND): Promise<KeyRecord> {
  return liveKey(services, principal, await services.storage.keys.get(keyId), detail);
}

/** The schema of `keyId` in get/update/delete/reroll (Unkey: 3..255, word characters). */
export const KEY_ID = { type: 'string', minLength: 3, maxLength: 255, pattern: '^[a-zA-Z0-9_]+$' } as const;
