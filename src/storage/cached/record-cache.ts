/**
 * The in-process cache of records verification reads on every request (keys by hash, root keys,
 * APIs, identities, role permissions, namespaces, overrides), for the distributed mode where each
 * read would otherwise be a Redis round trip. Entries, negative ones included, live at most
 * `ttlMs` (a safety net); any change is evicted here at once and on every other replica through
 * the invalidation bus. While the bus is not live the cache is bypassed, so a replica that cannot
 * hear about changes never answers from memory. A change whose message could not be published
 * (the connection dropped between the write and the PUBLISH, say) is published again every
 * RETRY_MS until it goes out or twice `ttlMs` has passed, after which no replica can still hold
 * what it changed (see retry()): without that, the other replicas would answer from memory until
 * then.
 */
import type { Invalidation, InvalidationListener } from '../../cache/invalidation.js';
import type { Change, ChangeFeed, ChangeListener } from '../../cache/change-feed.js';
import { Lru } from '../../cache/lru.js';
import type { Logger } from '../../obs/log.js';

/** A cache key made of several parts (workspace and name, say) that cannot run into each other. */
export const scopedKey = (...parts: readonly string[]): string => parts.join('\u0000');

export interface CacheBus {
  readonly live: boolean;
  publish(message: Invalidation): Promise<void>;
  listen(listener: InvalidationListener): void;
}

export interface RecordCacheOptions {
  readonly maxEntries: number;
  readonly ttlMs: number;
}

/**
 * Share of `ttlMs` an entry may end early, at random: records first read together (every key
 * verified after a start) then expire over a quarter of the time to live, not in one burst of
 * Redis reads.
 */
const TTL_SPREAD = 0.25;

/** How often unpublished invalidations are tried again. */
const RETRY_MS = 200;

export class RecordCache implements InvalidationListener {
  private readonly areas = new Map<string, Lru<unknown>>();
  /** Bumped by every eviction: a read that started before it must not store what it loaded. */
  private generation = 0;
  hits = 0;
  misses = 0;
  /** Invalidations not yet published, oldest first, with when the change was made. */
  private unpublished: { readonly message: Invalidation; readonly changedAtMs: number }[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private retrying = false;
  private readonly changeListeners: ChangeListener[] = [];
  /** The same evictions, told to the caches built on these records (the verification hot set). */
  readonly feed: ChangeFeed;

  constructor(private readonly bus: CacheBus, private readonly options: RecordCacheOptions, private readonly log: Logger) {
    bus.listen(this);
    const listeners = this.changeListeners;
    this.feed = {
      get live() { return bus.live; },
      catchUp() { /* changes are pushed by the bus */ },
      listen(listener) { listeners.push(listener); },
    };
  }

  private area(name: string): Lru<unknown> {
    let lru = this.areas.get(name);
    if (!lru) this.areas.set(name, lru = new Lru(this.options.maxEntries, this.options.ttlMs, Date.now, TTL_SPREAD));
    return lru;
  }

  /** The cached value, or `load()`'s, stored unless an eviction happened while it loaded. */
  async read<V>(area: string, key: string, load: () => Promise<V>): Promise<V> {
    if (!this.bus.live) return load();
    const lru = this.area(area);
    const hit = lru.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit as V;
    }
    this.misses++;
    const generation = this.generation;
    const value = await load();
    if (this.bus.live && generation === this.generation) lru.set(key, value);
    return value;
  }

  /** After a change: evict here now, then on every replica; a failed publish is retried. */
  async changed(area: string, key?: string): Promise<void> {
    this.evict(area, key);
    const message: Invalidation = key === undefined ? { area } : { area, key };
    try {
      await this.bus.publish(message);
    } catch (err) {
      this.log.warn({ err, area }, 'cache invalidation could not be published: retrying until it is (other replicas may answer from their cache until then)');
      this.unpublished.push({ message, changedAtMs: Date.now() });
      this.retryTimer ??= setInterval(() => void this.retry(), RETRY_MS).unref();
    }
  }

  /** Invalidations still waiting to be published (tests, the bench). */
  get pendingInvalidations(): number {
    return this.unpublished.length;
  }

  private async retry(): Promise<void> {
    if (this.retrying) return;
    this.retrying = true;
    try {
      // Past twice the TTL no replica holds what changed: a record cached before the change
      // expires within one TTL, and an entry built from it by a cache on `feed` (the verification
      // hot set, the remembered root keys; same TTL) within one more.
      const expired = Date.now() - 2 * this.options.ttlMs;
      this.unpublished = this.unpublished.filter((u) => u.changedAtMs > expired);
      let published = 0;
      while (this.unpublished.length > 0) {
        await this.bus.publish(this.unpublished[0]!.message);
        this.unpublished.shift();
        published++;
      }
      if (published > 0) this.log.info({ published }, 'cache invalidations published after a retry');
    } catch {
      // Still failing: the next tick tries again.
    } finally {
      this.retrying = false;
      if (this.unpublished.length === 0 && this.retryTimer) {
        clearInterval(this.retryTimer);
        this.retryTimer = undefined;
      }
    }
  }

  onMessage(message: Invalidation): void {
    this.evict(message.area, message.key);
  }

  onLiveChanged(): void {
    // Down: what is cached can no longer be trusted. Up: messages may have been missed meanwhile.
    this.clear();
  }

  clear(): void {
    this.generation++;
    for (const lru of this.areas.values()) lru.clear();
    this.tell({ kind: 'everything' });
  }

  private tell(change: Change): void {
    for (const listener of this.changeListeners) listener(change);
  }

  /** An area's eviction as a change of the records verification reads; undefined for the others. */
  private static changeOf(area: string, key: string | undefined): Change | undefined {
    switch (area) {
      case 'key': return key === undefined ? { kind: 'key' } : { kind: 'key', hashes: [key] };
      case 'api': case 'identity': return key === undefined ? { kind: 'everything' } : { kind: area, id: key };
      case 'roleSlugs': return { kind: 'roles' };
      case 'rootKey': return { kind: 'rootKeys' };
      default: return undefined;
    }
  }

  private evict(area: string, key: string | undefined): void {
    this.generation++;
    const change = RecordCache.changeOf(area, key);
    if (change) this.tell(change);
    const lru = this.areas.get(area);
    if (!lru) return;
    if (key === undefined) lru.clear();
    else lru.delete(key);
  }

  /** Entries dropped to stay within CACHE_MAX_ENTRIES, over every area (GET /metrics). */
  get evictions(): number {
    let total = 0;
    for (const lru of this.areas.values()) total += lru.evictions;
    return total;
  }

  /** Entries held, over all areas. */
  get size(): number {
    let n = 0;
    for (const lru of this.areas.values()) n += lru.size;
    return n;
  }
}
