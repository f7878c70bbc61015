/**
 * The ROOT_KEY setting: at start-up its value becomes the root key `rk_env` with every permission.
 * The setting is the source of truth for that one key: a changed value replaces the old one, and
 * an unset ROOT_KEY removes it. Root keys made with the CLI are not touched.
 */
import { generateRootKey, hashKey } from '../keys/format.js';
import { WORKSPACE_ID, type RootKeyRecord } from '../storage/records.js';
import type { RootKeyStore } from '../storage/types.js';
import { ALL_PERMISSIONS } from './permissions.js';
import { target } from '../audit/targets.js';
import { operatorEvent } from '../audit/context.js';

export const ENV_ROOT_KEY_ID = 'rk_env';

export async function syncEnvRootKey(rootKeys: RootKeyStore, rootKey: string | undefined, nowMs = Date.now()): Promise<'registered' | 'unchanged' | 'removed' | 'none'> {
  const existing = await rootKeys.get(ENV_ROOT_KEY_ID);
  if (rootKey === undefined) {
    if (!existing) return 'none';
    await rootKeys.remove(ENV_ROOT_KEY_ID, operatorEvent('bootstrap', 'bootstrap:ROOT_KEY', {
      targets: [target('root_key', ENV_ROOT_KEY_ID, existing.name)], summary: 'removed the ROOT_KEY root key: the setting is unset',
    }, nowMs));
    return 'removed';
  }
  const hash = hashKey(rootKey);
  const sameGrants = existing && existing.permissions.length === ALL_PERMISSIONS.length
    && ALL_PERMISSIONS.every((p) => existing.permissions.includes(p));
  if (existing && existing.hash === hash && existing.revokedAt === undefined && sameGrants) return 'unchanged';
  const record: RootKeyRecord = {
    id: ENV_ROOT_KEY_ID,
    workspaceId: WORKSPACE_ID,
    name: 'ROOT_KEY setting',
    hash,
    // No characters of an operator-chosen secret are kept, not even a display prefix.
    start: 'ROOT_KEY',
    permissions: ALL_PERMISSIONS,
    createdAt: existing?.createdAt ?? nowMs,
  };
  await rootKeys.put(record, operatorEvent('bootstrap', 'bootstrap:ROOT_KEY', {
    targets: [target('root_key', ENV_ROOT_KEY_ID, record.name)], summary: existing ? 'replaced the ROOT_KEY root key' : 'registered the ROOT_KEY root key',
  }, nowMs));
  return 'registered';
}

/** A new root key record and its plaintext (shown once by the CLI). */
export function newRootKey(id: string, name: string | undefined, permissions: readonly string[], nowMs = Date.now()): { record: RootKeyRecord; plaintext: string } {
  const key = generateRootKey();
  const record: RootKeyRecord = {
    id, workspaceId: WORKSPACE_ID, hash: key.hash, start: key.start, permissions: [...new Set(permissions)], createdAt: nowMs,
    ...(name ? { name } : {}),
  };
  return { record, plaintext: key.plaintext };
}
