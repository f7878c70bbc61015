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
