/**
 * Hash tags shared by the limiter's counters and the records read on the same path, so that what
 * one ratelimit.limit call for an identifier touches in Redis sits in one Cluster slot: if that
 * slot's master is lost, that identifier fails, and no other.
 */
import { createHash } from 'node:crypto';

/** base64url of the first 96 bits of SHA-256(owner): never contains `{` or `}`. */
export function ownerTag(owner: string): string {
  return createHash('sha256').update(owner).digest().subarray(0, 12).toString('base64url');
}
