import { describe, expect, test } from 'vitest';
import { Lru } from '../../src/cache/lru.js';
import { expectSpreadExpiry } from '../support/expiry.js';

describe('Lru', () => {
  test('keeps at most maxEntries, dropping the least recently used', () => {
    const lru = new Lru<number>(2, 60_000);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
    expect(lru.evictions).toBe(1);
  });

  test('null is a cached value (a negative entry); undefined is a miss', () => {
    const lru = new Lru<string | null>(10, 60_000);
    lru.set('gone', null);
    expect(lru.get('gone')).toBeNull();
    expect(lru.get('never')).toBeUndefined();
  });

  test('entries expire after the TTL', () => {
    let now = 1_000;
    const lru = new Lru<number>(10, 500, () => now);
    lru.set('a', 1);
    now = 1_499;
    expect(lru.get('a')).toBe(1);
    now = 1_500;
    expect(lru.get('a')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  test('with a spread, entries stored together expire at random within its share of the TTL, never after the TTL', () => {
    let now = 0;
    const lru = new Lru<number>(1_000, 1_000, () => now, 0.25);
    for (let i = 0; i < 200; i++) lru.set(`k${i}`, i);
    const alive = (): number => Array.from({ length: 200 }, (_, i) => lru.get(`k${i}`)).filter((v) => v !== undefined).length;
    expectSpreadExpiry(1_000, 200, (ms) => { now = ms; }, alive);
  });
});
