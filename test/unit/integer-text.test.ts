/**
 * integerText (src/util/integer-text.ts) writes the numbers of verifyKey's limit results: exactly
 * what JSON.stringify gives, around every power of ten and at the edges of its fast path.
 */
import { describe, expect, it } from 'vitest';
import { integerText } from '../../src/util/integer-text.js';

describe('integerText', () => {
  it('matches String(n) for integers around every boundary and at random', () => {
    const values = [0, 1, 9, 10, 999_999_999, 1e9, 1e9 + 1, 1e9 + 10, 2e9 + 5, 1_764_000_000_000, 1e12, 999_999_999_999,
      1_000_000_000_007, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 1e21, 0.5, 1e9 + 0.5];
    for (let p = 1; p <= 1e15; p *= 10) values.push(p - 1, p, p + 1, p * 3 + 7);
    let seed = 7;
    for (let i = 0; i < 10_000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      values.push(Math.floor((seed / 2 ** 31) * 2 ** (seed % 53)));
    }
    for (const n of values) expect(integerText(n)).toBe(JSON.stringify(n));
  });
});
