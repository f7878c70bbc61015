/**
 * Hash tags derived from a rate-limit owner (an identity, a key, an identifier): the limiter's
 * counters and the override index are spread over a few fixed tags each, chosen by the owner.
 */
import { createHash } from 'node:crypto';
import calculateSlot from 'cluster-key-slot';

/** Owners seen recently: hot identities and identifiers are tagged on every check. */
const MEMO_ENTRIES = 10_000;
const memo = new Map<string, string>();

/** base64url of the first 96 bits of SHA-256(owner): never contains `{` or `}`. */
export function ownerTag(owner: string): string {
  let tag = memo.get(owner);
  if (tag !== undefined) return tag;
  tag = createHash('sha256').update(owner).digest().subarray(0, 12).toString('base64url');
  // Cleared when full rather than kept in LRU order: cheaper, and a miss only costs one hash.
  if (memo.size >= MEMO_ENTRIES) memo.clear();
  memo.set(owner, tag);
  return tag;
}

/**
 * The override index of an identifier is spread over OVERRIDE_INDEX_BUCKETS hash tags (`b0` …
 * `b15`) chosen by the identifier (storage/redis/keys.ts). Fixed, not a setting: the tag is part
 * of a stored key's name, so another count would lose the overrides already indexed.
 */
export const OVERRIDE_INDEX_BUCKETS = 16;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The owner's bucket of 16: from its owner tag's first character (6 bits of SHA-256; 16 divides 64). */
const indexBucket = (owner: string): number => BASE64URL.indexOf(ownerTag(owner)[0] as string) % OVERRIDE_INDEX_BUCKETS;

/** `b<n>`, n the owner's bucket. */
export function overrideIndexTag(owner: string): string {
  return OVERRIDE_INDEX_TAGS[indexBucket(owner)]!;
}

const OVERRIDE_INDEX_TAGS = Array.from({ length: OVERRIDE_INDEX_BUCKETS }, (_, i) => `b${i}`);

/** Slots in a Redis Cluster. */
const SLOTS = 16_384;

/**
 * The rate limiter's counters are spread over three hash tags (ratelimit/redis-keys.ts). A Lua
 * script touches one Cluster slot, so the number of tags is the number of script calls a turn's
 * checks need: few tags make few, large calls, which is what a call's fixed cost in Redis and in
 * the replica asks for. Each tag's slot is the middle of one third of the slot space, so a Cluster
 * whose slots are split evenly among three masters (as `redis-cli --cluster create` splits them)
 * has one on each. Counters are short-lived, so these tags may change between versions (counters
 * start afresh); the replicas of one version agree.
 */
export const COUNTER_TAGS = ['c0-3354', 'c1-65', 'c2-993'] as const;

/**
 * Per override-index tag, the counter tag in the same third of the slot space: an owner's counters
 * go where its override index entry is, so on an evenly split three-master Cluster what one
 * ratelimit.limit call reads and writes in Redis is on one master, and a lost master costs only
 * the identifiers it holds.
 */
const COUNTER_TAG_OF_INDEX_TAG = OVERRIDE_INDEX_TAGS.map((tag) => COUNTER_TAGS[Math.floor((calculateSlot(tag) * COUNTER_TAGS.length) / SLOTS)]!);

/** The counter tag of an owner: see COUNTER_TAGS. */
export function counterTag(owner: string): string {
  return COUNTER_TAG_OF_INDEX_TAG[indexBucket(owner)]!;
}
