import { ApiError } from '../../../errors/api-error.js';
import type { CreditsRecord } from '../../../storage/records.js';
import type { CreditsRequest } from './schema.js';

/**
 * Unkey's createKey credit rules; null means unlimited (no counter is stored). A refill's schedule
 * starts at `nowMs`: the first refill is at the next refill moment after creation.
 */
export function creditsFromRequest(credits: CreditsRequest | undefined, nowMs: number): CreditsRecord | null {
  if (!credits) return null;
  const { remaining, refill } = credits;
  if (refill && remaining === null) {
    throw new ApiError('err:unkey:application:invalid_input', '`credits.remaining` must be provided when `credits.refill` is set.');
  }
  if (remaining === null) return null;
  if (!refill) return { remaining };
  if (refill.interval === 'monthly') {
    if (refill.refillDay === undefined) {
      throw new ApiError('err:unkey:application:invalid_input', '`refillDay` must be provided when the refill interval is `monthly`.');
    }
    return { remaining, refill: { interval: 'monthly', amount: refill.amount, refillDay: refill.refillDay }, lastRefillAt: nowMs };
  }
  // A daily refill ignores refillDay, as Unkey's createKey does.
  return { remaining, refill: { interval: 'daily', amount: refill.amount }, lastRefillAt: nowMs };
}
