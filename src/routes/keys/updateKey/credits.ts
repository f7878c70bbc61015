import { ApiError } from '../../../errors/api-error.js';
import type { CreditsRecord, CreditsRefill } from '../../../storage/records.js';
import type { CreditsUpdate, RefillRequest } from './schema.js';

const invalid = (detail: string) => new ApiError('err:unkey:application:invalid_input', detail);

/** updateKey is stricter than createKey: a daily refill with a day is refused, not ignored. */
function toRefill(refill: RefillRequest): CreditsRefill {
  if (refill.interval === 'monthly') {
    if (refill.refillDay === undefined) throw invalid('`refillDay` must be provided when the refill interval is `monthly`.');
    return { interval: 'monthly', amount: refill.amount, refillDay: refill.refillDay };
  }
  if (refill.refillDay !== undefined) throw invalid('`refillDay` must not be provided when the refill interval is `daily`.');
  return { interval: 'daily', amount: refill.amount };
}

/**
 * The credits counter after a partial update: `undefined` leaves it as it is, `null` makes the key
 * unlimited. Throws the 400s before anything is written.
 */
export function nextCredits(update: CreditsUpdate | null, current: CreditsRecord | null): CreditsRecord | null | undefined {
  // null, or remaining: null, means unlimited, and an unlimited key has no refill (Unkey clears it).
  if (update === null) return null;
  const refill = update.refill === undefined || update.refill === null ? update.refill : toRefill(update.refill);
  if (update.remaining === null) {
    if (refill) throw invalid('`credits.remaining` must be provided when `credits.refill` is set.');
    return null;
  }
  const remaining = update.remaining ?? current?.remaining;
  if (remaining === undefined) {
    // keygate keeps a refill inside the credits counter, so an unlimited key cannot carry one;
    // refusing is better than silently dropping the refill the caller asked for.
    if (refill) throw invalid('`credits.remaining` must be provided when `credits.refill` is set on a key with unlimited credits.');
    return undefined;
  }
  if (update.remaining === undefined && refill === undefined) return undefined;
  const nextRefill = refill === undefined ? current?.refill : refill ?? undefined;
  return {
    remaining,
    ...(nextRefill ? { refill: nextRefill } : {}),
    ...(current?.lastRefillAt !== undefined ? { lastRefillAt: current.lastRefillAt } : {}),
  };
}
