/**
 * cachedStorage: a Storage whose hot reads (what keys.verifyKey, root-key authentication and
 * ratelimit.limit read on every request) come from a RecordCache, and whose writes evict what they
 * change, here and on every replica. Everything else passes straight through to the backend.
 */
import type { KeyRecord } from '../records.js';
import type { Storage } from '../types.js';
import type { RecordCache } from './record-cache.js';

/** The inner store with some methods replaced; the rest are the inner store's own. */
function withOverrides<T extends object>(inner: T, overrides: Partial<T>): T {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (Object.prototype.hasOwnProperty.call(overrides, prop)) return (overrides as Record<PropertyKey, unknown>)[prop];
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const scopedKey = (...parts: readonly string[]): string => parts.join('\u0000');

export function cachedStorage(inner: Storage, cache: RecordCache): Storage {
  const { rootKeys, apis, keys, identities, namespaces, permissions, roles, overrides } = inner;

  /** Runs a key-record write, then evicts every hash the key had before and has after. */
  const keyChange = async <R>(hashesBefore: readonly string[], write: () => Promise<R>, hashesAfter: (result: R) => readonly string[] = () => []): Promise<R> => {
    let result: R;
    try {
      result = await write();
    } catch (err) {
      // A write that failed may still have happened (its replicas did not answer in time, or
      // Redis timed out after applying it): what it may have changed is not served from memory.
      await Promise.all([...new Set(hashesBefore)].map((hash) => cache.changed('key', hash)));
      throw err;
    }
    await Promise.all([...new Set([...hashesBefore, ...hashesAfter(result)])].map((hash) => cache.changed('key', hash)));
    return result;
  };
  const hashOf = async (keyId: string): Promise<string[]> => {
    const key = await keys.get(keyId);
    return key ? [key.hash] : [];
  };

  return {
    ...inner,
    rootKeys: withOverrides(rootKeys, {
      findByHash: (hash) => cache.read('rootKey', hash, () => rootKeys.findByHash(hash)),
      put: async (record, event) => { await rootKeys.put(record, event); await cache.changed('rootKey'); },
      revoke: async (id, atMs, event) => { const done = await rootKeys.revoke(id, atMs, event); await cache.changed('rootKey'); return done; },
      remove: async (id, event) => { await rootKeys.remove(id, event); await cache.changed('rootKey'); },
    }),
    apis: withOverrides(apis, {
      get: (id) => cache.read('api', id, () => apis.get(id)),
      markDeleted: async (id, atMs, event) => { const done = await apis.markDeleted(id, atMs, event); await cache.changed('api', id); return done; },
    }),
    keys: withOverrides(keys, {
      findByHash: (hash) => cache.read('key', hash, () => keys.findByHash(hash)),
      // A new hash may be cached as "no such key" by a replica that saw it verified before.
      insert: (record, credits) => keyChange([record.hash], () => keys.insert(record, credits)),
      insertAttaching: (newKeys, ifDeleted) => keyChange(newKeys.map((k) => k.record.hash), () => keys.insertAttaching(newKeys, ifDeleted)),
      update: async (record) => keyChange([...await hashOf(record.id), record.hash], () => keys.update(record)),
      modify: async (id, change) => {
        const before: string[] = [];
        const tracked = (current: KeyRecord): KeyRecord | null => { before.push(current.hash); return change(current); };
        return keyChange(before, () => keys.modify(id, tracked), (after) => (after ? [after.hash] : []));
      },
      modifyAttaching: async (id, attaching, change, event) => {
        const before: string[] = [];
        const tracked = (current: KeyRecord): KeyRecord | null => { before.push(current.hash); return change(current); };
        return keyChange(before, () => keys.modifyAttaching(id, attaching, tracked, event), (outcome) => (outcome.kind === 'changed' ? [outcome.key.hash] : []));
      },
      delete: async (id, event) => keyChange(await hashOf(id), () => keys.delete(id, event)),
      // hasCredits lives on the key record, which verification reads from the cache.
      setCredits: async (keyId, credits, event) => keyChange(await hashOf(keyId), () => keys.setCredits(keyId, credits, event)),
      patchCredits: async (keyId, patch, event) => keyChange(await hashOf(keyId), () => keys.patchCredits(keyId, patch, event)),
    }),
    identities: withOverrides(identities, {
      get: (id) => cache.read('identity', id, () => identities.get(id)),
      update: async (record, event) => { await identities.update(record, event); await cache.changed('identity', record.id); },
      delete: async (id, event) => { const done = await identities.delete(id, event); await cache.changed('identity', id); return done; },
    }),
    namespaces: withOverrides(namespaces, {
      find: (workspaceId, nameOrId) => cache.read('namespace', scopedKey(workspaceId, nameOrId), () => namespaces.find(workspaceId, nameOrId)),
      // Other replicas may hold "no such namespace" for the name just created.
      getOrCreate: async (workspaceId, name, create) => {
        const record = await namespaces.getOrCreate(workspaceId, name, create);
        await cache.changed('namespace');
        return record;
      },
      markDeleted: async (id, atMs) => { const done = await namespaces.markDeleted(id, atMs); await cache.changed('namespace'); return done; },
    }),
    overrides: withOverrides(overrides, {
      findExact: (namespaceId, identifier) => cache.read('override', scopedKey(namespaceId, 'exact', identifier), () => overrides.findExact(namespaceId, identifier)),
      wildcards: (namespaceId) => cache.read('override', scopedKey(namespaceId, 'wildcards'), () => overrides.wildcards(namespaceId)),
      set: async (values, atMs, newId, event) => { const record = await overrides.set(values, atMs, newId, event); await cache.changed('override'); return record; },
      delete: async (namespaceId, identifier, atMs, event) => { const done = await overrides.delete(namespaceId, identifier, atMs, event); await cache.changed('override'); return done; },
    }),
    roles: withOverrides(roles, {
      slugsOfRoles: (workspaceId, roleNames) => cache.read('roleSlugs', scopedKey(workspaceId, ...roleNames), () => roles.slugsOfRoles(workspaceId, roleNames)),
      insert: async (record, event) => { await roles.insert(record, event); await cache.changed('roleSlugs'); },
      setPermissions: async (roleId, ids, event) => { const role = await roles.setPermissions(roleId, ids, event); await cache.changed('roleSlugs'); return role; },
      // Removes the role from every key of the workspace: any cached key may be affected.
      delete: async (id, event) => { const done = await roles.delete(id, event); await cache.changed('roleSlugs'); await cache.changed('key'); return done; },
    }),
    permissions: withOverrides(permissions, {
      // Removes the permission from every role and key of the workspace.
      delete: async (id, event) => { const done = await permissions.delete(id, event); await cache.changed('roleSlugs'); await cache.changed('key'); return done; },
    }),
  };
}
