/**
 * The only place rate-limiter keys in Redis are spelled, so a change of layout is made once:
 * `<keyPrefix>rl:{<limit tag>}:<owner tag>:<counter>:<durationMs>`, one hash per counter and
 * duration.
 *
 * The hash tag is one of 16 bucket tags chosen by the owner (redis/tags.ts, limitTag), not one per
 * owner: a Lua script may touch one Cluster slot only, so with a slot per owner verifications
 * spread over many identities would cost about one script call each. With buckets every counter
 * of one owner still sits in one slot (a group of them commits in one script), and a batch
 * carries the checks of every owner sharing the bucket. Owners never share a counter: the owner's
 * own tag follows the bucket tag.
 */
import calculateSlot from 'cluster-key-slot';
import { limitTag, ownerTag } from '../redis/tags.js';

export { LIMIT_BUCKETS, ownerTag } from '../redis/tags.js';

/** Rejects a prefix that would put its own hash tag in front of ours. */
export function checkKeyPrefix(keyPrefix: string): string {
  if (keyPrefix.includes('{') || keyPrefix.includes('}')) {
    throw new Error(`rate-limiter key prefix must not contain '{' or '}' (it would decide the Cluster slot): ${keyPrefix}`);
  }
  return keyPrefix;
}

export function limiterKey(keyPrefix: string, owner: string, counter: string, durationMs: number): string {
  return `${keyPrefix}rl:{${limitTag(owner)}}:${ownerTag(owner)}:${counter}:${durationMs}`;
}

/** The Cluster slot of a limiter key (CRC16 of its hash tag, as Redis computes it). */
export const slotOf = (key: string): number => calculateSlot(key);
