/**
 * The only place rate-limiter keys in Redis are spelled, so a change of layout is made once:
 * a counter is the field `<owner tag>:<counter>:<durationMs>` of the hash `<keyPrefix>rl:{<counter tag>}`
 * (its bucket) on a Cluster, of `<keyPrefix>rl:{all}` on a standalone Redis; its value is the
 * packed window state (lua/ratelimit-check.lua).
 *
 * The hash tag is one of three bucket tags chosen by the owner (redis/tags.ts, counterTag), not
 * one per owner: a Lua script may touch one Cluster slot only, so with a slot per owner
 * verifications spread over many identities would cost about one script call each. With buckets
 * every counter of one owner still sits in one slot (a group of them commits in one script), and a
 * batch carries the checks of every owner sharing the bucket. Counters are fields of the bucket's
 * hash, not keys of their own, so a script reads all of a call's counters in a hash with one
 * command. Owners never share a counter: the owner's own tag begins the field.
 */
import calculateSlot from 'cluster-key-slot';
import { counterTag, ownerTag } from '../redis/tags.js';

export { COUNTER_TAGS, ownerTag } from '../redis/tags.js';

/** Rejects a prefix that would put its own hash tag in front of ours. */
export function checkKeyPrefix(keyPrefix: string): string {
  if (keyPrefix.includes('{') || keyPrefix.includes('}')) {
    throw new Error(`rate-limiter key prefix must not contain '{' or '}' (it would decide the Cluster slot): ${keyPrefix}`);
  }
  return keyPrefix;
}

/**
 * The hash that holds the owner's counters: its bucket's on a Cluster; on a standalone Redis, where
 * one script call takes a whole turn's checks, one hash for all, so that call reads and writes
 * them with one command each.
 */
export function limiterHash(keyPrefix: string, owner: string, cluster: boolean): string {
  return cluster ? `${keyPrefix}rl:{${counterTag(owner)}}` : `${keyPrefix}rl:{all}`;
}

/**
 * A counter's field in its bucket's hash; the duration ends it (the sweep reads it there). Made
 * well-formed text (a lone surrogate becomes U+FFFD): the check call sends fields inside a msgpack
 * array and the refund call as plain arguments, and the two would encode a lone surrogate to
 * different bytes, so a refund would miss its counter.
 */
export function limiterField(owner: string, counter: string, durationMs: number): string {
  return wellFormed(`${ownerTag(owner)}:${counter}:${durationMs}`);
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** `text` with every lone surrogate replaced by U+FFFD, as UTF-8 encoding does it. */
function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? Buffer.from(text).toString() : text;
}

/** The Cluster slot of a limiter key (CRC16 of its hash tag, as Redis computes it). */
export const slotOf = (key: string): number => calculateSlot(key);
