/**
 * The only place rate-limiter keys in Redis are spelled (house style §6.1):
 * `<keyPrefix>rl:{<tag>}:<counter>:<durationMs>`, one hash per counter and duration.
 *
 * The tag is derived from the check's owner, so every counter of one owner (one identity or key,
 * one ratelimit identifier) lives in one Cluster slot and a group of them runs in one script.
 * The owner is hashed first: owners are user input (ratelimit identifiers), and a `{` or `}` in
 * them would move the slot, a long one would bloat every key. 96 bits of SHA-256 keep tags short
 * (16 base64url characters) with collisions that only co-locate two owners, never merge counters
 * (the counter name follows the tag in full).
 */
import calculateSlot from 'cluster-key-slot';
import { ownerTag } from '../redis/tags.js';

export { ownerTag };

/** Rejects a prefix that would put its own hash tag in front of ours. */
export function checkKeyPrefix(keyPrefix: string): string {
  if (keyPrefix.includes('{') || keyPrefix.includes('}')) {
    throw new Error(`rate-limiter key prefix must not contain '{' or '}' (it would decide the Cluster slot): ${keyPrefix}`);
  }
  return keyPrefix;
}

export function limiterKey(keyPrefix: string, owner: string, counter: string, durationMs: number): string {
  return `${keyPrefix}rl:{${ownerTag(owner)}}:${counter}:${durationMs}`;
}

/** The Cluster slot of a limiter key (CRC16 of its hash tag, as Redis computes it). */
export const slotOf = (key: string): number => calculateSlot(key);
