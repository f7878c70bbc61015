/**
 * Integers as JSON text, for the numbers of verifyKey's limit results. Beyond the small-integer
 * range V8 formats a number as a double (shortest round trip), slower than two small integers;
 * the remaining of a large limit is such a number.
 */

const ZEROS = ['', '0', '00', '000', '0000', '00000', '000000', '0000000', '00000000'];

/** Digits of a non-negative integer below 10^9. */
function digitsOf(n: number): number {
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  return digits;
}

/** A number as JSON.stringify writes it, made of small-integer parts when it is a large safe integer. */
export function integerText(n: number): string {
  if (n < 1e9 || !Number.isSafeInteger(n)) return `${n}`;
  const high = Math.floor(n / 1e9);
  const low = n - high * 1e9;
  return `${high}${ZEROS[9 - digitsOf(low)]}${low}`;
}
