/**
 * A bounded in-process LRU with a per-entry time to live. `null` is a value like any other (a
 * negative entry: "no such key"), `undefined` from get() means a miss. Map insertion order is the
 * recency order: a hit moves the entry to the end, the first entry is the least recently used.
 */
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  /** Entries dropped to stay within `maxEntries` (since start). */
  evictions = 0;

  /**
   * `spread`: share of `ttlMs` an entry may end early, at random (0: none), so entries stored
   * together do not all expire, and get loaded again, together.
   */
  constructor(private readonly maxEntries: number, private readonly ttlMs: number, private readonly now: () => number = Date.now,
    private readonly spread = 0) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAtMs <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAtMs: this.now() + this.ttlMs * (1 - this.spread * Math.random()) });
    if (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
      this.evictions++;
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
