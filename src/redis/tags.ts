/**
 * Hash tags shared by the limiter's counters and the records read on the same path, so that what
 * one ratelimit.limit call for an identifier touches in Redis sits in one Cluster slot: if that
 * slot's master is lost, that identifier fails, and no other.
 */
import { createHash } from 'node:crypto';

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
 * Rate-limit traffic is spread over LIMIT_BUCKETS hash tags (`b0` … `b15`) chosen by the owner,
 * instead of one tag per owner: a Lua script touches one Cluster slot, so the tag decides how many
 * owners' checks one batched script call can carry (ratelimit/redis-keys.ts). The override index
 * of an identifier uses the same tag, so a ratelimit.limit call still needs one slot (and one
 * master) only. Fixed, not a setting: replicas that disagreed would count one owner in two places.
 */
export const LIMIT_BUCKETS = 16;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** `b<n>`: n from the owner tag's first character (6 bits of SHA-256; 16 divides 64). */
export function limitTag(owner: string): string {
  return LIMIT_TAGS[BASE64URL.indexOf(ownerTag(owner)[0] as string) % LIMIT_BUCKETS] as string;
}

const LIMIT_TAGS = Array.from({ length: LIMIT_BUCKETS }, (_, i) => `b${i}`);
