/**
 * cachedStorage: a Storage whose hot reads (what keys.verifyKey, root-key authentication and
 * ratelimit.limit read on every request) come from a RecordCache, and whose writes evict what they
 * change, here and on every replica. Each cached store lists every method of its interface with all
 * its parameters, so a method or parameter added to a store does not compile until it is handled.
 */
import type { ApiStore, IdentityStore, KeyStore, NamespaceStore, OverrideStore, PermissionStore, RoleStore, RootKeyStore, Storage } from '../types.js';
import { CachedApiStore } from './apis.js';
import { CachedIdentityStore } from './identities.js';
import { CachedKeyStore } from './keys.js';
import { CachedNamespaceStore } from './namespaces.js';
import { CachedOverrideStore } from './overrides.js';
import { CachedPermissionStore } from './permissions.js';
import type { RecordCache } from './record-cache.js';
import { CachedRoleStore } from './roles.js';
import { CachedRootKeyStore } from './root-keys.js';
import type { Holds, SameParameters } from './same-parameters.js';

/** Each cached store passes on every parameter of its interface: checked when this compiles. */
export type CachedStoresPassEveryParameter = [
  Holds<SameParameters<CachedRootKeyStore, RootKeyStore>>,
  Holds<SameParameters<CachedApiStore, ApiStore>>,
  Holds<SameParameters<CachedKeyStore, KeyStore>>,
  Holds<SameParameters<CachedIdentityStore, IdentityStore>>,
  Holds<SameParameters<CachedNamespaceStore, NamespaceStore>>,
  Holds<SameParameters<CachedOverrideStore, OverrideStore>>,
  Holds<SameParameters<CachedPermissionStore, PermissionStore>>,
  Holds<SameParameters<CachedRoleStore, RoleStore>>,
];

export function cachedStorage(inner: Storage, cache: RecordCache): Storage {
  return {
    rootKeys: new CachedRootKeyStore(inner.rootKeys, cache),
    apis: new CachedApiStore(inner.apis, cache),
    keys: new CachedKeyStore(inner.keys, cache),
    identities: new CachedIdentityStore(inner.identities, cache),
    namespaces: new CachedNamespaceStore(inner.namespaces, cache),
    overrides: new CachedOverrideStore(inner.overrides, cache),
    permissions: new CachedPermissionStore(inner.permissions, cache),
    roles: new CachedRoleStore(inner.roles, cache),
    // Uncached: migrations are read once per migrated key, verifications only by analytics, and an ended session must end at once.
    migrations: inner.migrations,
    verifications: inner.verifications,
    sessions: inner.sessions,
    // Written by the other stores' writes; listing and pruning are not on the hot path.
    audit: inner.audit,
    close: () => inner.close(),
  };
}
