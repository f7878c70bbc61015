/**
 * What changed in the records verification reads, as told to the in-process caches built on them
 * (the verification hot set, remembered root keys). Each backend delivers the changes of every
 * process: the embedded one from a change log every LMDB writer appends to (storage/lmdb/changes.ts),
 * the distributed one from the record cache's pub/sub invalidations (storage/cached/).
 */
export type Change =
  /** A key record: by id, by hash (a new hash may be remembered as "no such key"), or every key. */
  | { readonly kind: 'key'; readonly id?: string; readonly hashes?: readonly string[] }
  | { readonly kind: 'api' | 'identity'; readonly id: string }
  /** Roles or permissions: the effective permissions of any key may differ. */
  | { readonly kind: 'roles' }
  | { readonly kind: 'rootKeys' }
  /** Changes may have been missed: nothing remembered may be trusted. */
  | { readonly kind: 'everything' };

export type ChangeListener = (change: Change) => void;

export interface ChangeFeed {
  /** While false, changes made elsewhere may not arrive: nothing may be answered from memory. */
  readonly live: boolean;
  /**
   * Delivers the changes committed since the last call (or those of other processes after a few
   * milliseconds: storage/lmdb/changes.ts). Cheap enough to run before every lookup; a no-op
   * where changes are pushed instead (pub/sub).
   */
  catchUp(): void;
  listen(listener: ChangeListener): void;
}
