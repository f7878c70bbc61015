/**
 * Unique indexes (key hash, externalId, slug, role name, namespace name, override identifier → id)
 * in their own slots, apart from the records they point at. An entry is `<id>|<claimedAtMs>`
 * (index-claim.lua) and counts only while the record it names exists and agrees with it (same
 * hash, externalId, …): readers check that, so an entry left by a crash between the index write
 * and the record write is simply absent.
 *
 * Writers claim the entry first and write the record second; deleting removes the record first
 * and the entry second. A claim younger than the lease (INDEX_LEASE_MS) whose record does not yet
 * agree may be a write in flight, so nobody else takes it over until the lease ran out, and a
 * writer whose claim is older than half the lease claims again before writing its record. An
 * older entry without an agreeing record is taken over (compare-and-set on the exact entry).
 */
import type { RedisClient } from '../../redis/client.js';
import { scripts } from './scripts.js';

/** How long a fresh claim without its record blocks other ids (a crashed write's leftover at most this long). */
export const INDEX_LEASE_MS = 5_000;

export type Claim =
  /** The entry names our id now; write the record before `isFresh` turns false. */
  | { readonly kind: 'claimed'; readonly atMs: number }
  /** Another id holds it and its record agrees. */
  | { readonly kind: 'held'; readonly holder: string }
  /** Another id claimed it recently; its record may be on the way. */
  | { readonly kind: 'pending'; readonly holder: string };

const holderOf = (entry: string): string => entry.slice(0, entry.lastIndexOf('|'));

/** True while a claim is young enough for its record write (half the lease; the rest is margin). */
export const isFresh = (claim: { atMs: number }): boolean => performance.now() - claim.atMs < INDEX_LEASE_MS / 2;

export class UniqueIndex {
  constructor(private readonly client: RedisClient) {}

  /** The id an entry names, unchecked: callers verify the record agrees. */
  async holder(indexKey: string): Promise<string | null> {
    const entry = await this.client.get(indexKey);
    return entry === null ? null : holderOf(entry);
  }

  /**
   * Claims `indexKey` for `id`. `agrees(holder)` tells whether another id's record really holds
   * the value (then the claim is refused as `held`).
   */
  async claim(indexKey: string, id: string, agrees: (holder: string) => Promise<boolean>): Promise<Claim> {
    let stale = '';
    for (let attempt = 0; attempt < 5; attempt++) {
      const started = performance.now();
      const [won, entry, ageMs] = await scripts.indexClaim.run(this.client, [indexKey], [id, stale, INDEX_LEASE_MS]) as [number, string, number?];
      if (won === 1) return { kind: 'claimed', atMs: started };
      const holder = holderOf(entry);
      if (await agrees(holder)) return { kind: 'held', holder };
      if ((ageMs ?? 0) < INDEX_LEASE_MS) return { kind: 'pending', holder };
      // Old and disagreeing: a leftover. Take it over unless it changed since we looked.
      stale = entry;
    }
    return { kind: 'pending', holder: '' };
  }

  /** Removes the entry if it still names `id` (after the record stopped holding the value). */
  async release(indexKey: string, id: string): Promise<void> {
    await scripts.indexRelease.run(this.client, [indexKey], [id]);
  }
}

/**
 * Get-or-create under a unique index (identities, namespaces, permissions, overrides): returns
 * what `find` sees (a record the index names and that agrees), or claims the entry for `create()`
 * and `store`s it. Concurrent callers end with one record: one claims, the others find its claim
 * pending and poll until its record is there. `create` runs at most once per call.
 */
export async function getOrInsert<T extends { id: string }>(
  index: UniqueIndex,
  indexKey: string,
  find: () => Promise<T | null>,
  agrees: (holder: string) => Promise<boolean>,
  create: () => T,
  store: (record: T) => Promise<void>,
): Promise<T> {
  let candidate: T | undefined;
  // A claim left by a crashed writer blocks for at most one lease; then it is taken over.
  const deadline = performance.now() + 3 * INDEX_LEASE_MS;
  while (performance.now() < deadline) {
    const found = await find();
    if (found) return found;
    candidate ??= create();
    const claim = await index.claim(indexKey, candidate.id, agrees);
    if (claim.kind === 'claimed' && isFresh(claim)) {
      await store(candidate);
      return candidate;
    }
    if (claim.kind === 'pending') await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 10));
  }
  throw new Error(`gave up waiting for the index entry ${indexKey}`);
}
