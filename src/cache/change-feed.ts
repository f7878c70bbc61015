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
   * Delivers the changes committed since the last call. Cheap enough to run once per event-loop
   * turn; a no-op where changes are pushed instead (pub/sub).
   */
  catchUp(): void;
  listen(listener: ChangeListener): void;
}

/** Per feed, its one once-per-turn caller: every cache on a feed shares it. */
const perTurn = new WeakMap<ChangeFeed, () => void>();

/**
 * Calls `catchUp` at most once per event-loop turn, for every cache of the feed together: the
 * first caller of a turn pays for it, the flag is cleared after the turn's I/O callbacks. A write
 * acknowledged to a client finished in an earlier turn than any request sent after that answer,
 * so every such request sees it.
 */
export function oncePerTurn(feed: ChangeFeed): () => void {
  let shared = perTurn.get(feed);
  if (shared === undefined) {
    let caughtUp = false;
    const clear = (): void => { caughtUp = false; };
    shared = () => {
      if (caughtUp) return;
      caughtUp = true;
      feed.catchUp();
      setImmediate(clear);
    };
    perTurn.set(feed, shared);
  }
  return shared;
}
