/**
 * Failed authentications per client address (wrong, unknown or revoked root keys, missing
 * credentials, failed dashboard sign-ins): each address may fail `limitPerMinute` times in a
 * burst, refilled at that rate; beyond, its failures are answered 429 with Retry-After instead of
 * 401. Only failures count and only failures are refused: a valid root key from the same address
 * keeps working, since behind a proxy every client shares one address and a lockout would let
 * one bad client lock out all of them.
 */
import { Lru } from '../cache/lru.js';
import { ApiError } from '../errors/api-error.js';

/** Addresses remembered at most; the least recently failing are forgotten first. */
const MAX_ADDRESSES = 10_000;
const MINUTE_MS = 60_000;

interface Bucket { tokens: number; updatedAtMs: number }

export class AuthFailureThrottle {
  private readonly buckets: Lru<Bucket>;

  constructor(private readonly limitPerMinute: number, private readonly now: () => number = Date.now) {
    // A bucket untouched for a minute is full again: forgetting it then changes nothing.
    this.buckets = new Lru(MAX_ADDRESSES, MINUTE_MS, now);
  }

  /** Counts one failure of `address`; answers the 429 to send instead of the 401, or null. */
  fail(address: string): ApiError | null {
    const nowMs = this.now();
    const bucket = this.buckets.get(address) ?? { tokens: this.limitPerMinute, updatedAtMs: nowMs };
    const refilled = Math.min(this.limitPerMinute, bucket.tokens + ((nowMs - bucket.updatedAtMs) * this.limitPerMinute) / MINUTE_MS);
    if (refilled >= 1) {
      this.buckets.set(address, { tokens: refilled - 1, updatedAtMs: nowMs });
      return null;
    }
    // A refused failure spends nothing: the address is let in again as soon as one token is back.
    this.buckets.set(address, { tokens: refilled, updatedAtMs: nowMs });
    const retryAfterSeconds = Math.max(1, Math.ceil(((1 - refilled) * MINUTE_MS) / this.limitPerMinute / 1000));
    return new ApiError('err:keygate:authentication:too_many_failures',
      `Too many failed authentications from this address: try again in ${retryAfterSeconds} s. Check that the root key is right and not revoked; a valid root key is not refused.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}
