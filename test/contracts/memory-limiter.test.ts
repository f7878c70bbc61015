import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRateLimiter } from '../../src/ratelimit/memory-limiter.js';
import { describeRateLimiter } from './rate-limiter.contract.js';

describeRateLimiter('memory', (now) => new MemoryRateLimiter({ now }));

describe('MemoryRateLimiter: stale counters are swept', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('removes a counter two windows after its window, keeps it while it still weighs', async () => {
    vi.useFakeTimers();
    let t = 1_700_000_000_500;
    const limiter = new MemoryRateLimiter({ now: () => t, sweepIntervalMs: 50 });
    try {
      const [first] = await limiter.limit([{ checks: [
        { counter: 'short', limit: 10, durationMs: 1000, cost: 10 },
        { counter: 'long', limit: 10, durationMs: 3_600_000, cost: 1 },
      ] }]);
      expect(first!.passed).toBe(true);
      // A cost-0 read leaves no state behind.
      await limiter.limit([{ checks: [{ counter: 'peek', limit: 10, durationMs: 1000, cost: 0 }] }]);
      expect(limiter.size).toBe(2);

      // Next window: the previous window still counts, so the counter must survive a sweep.
      t = 1_700_000_001_400;
      vi.advanceTimersByTime(50);
      expect(limiter.size).toBe(2);
      const [weighted] = await limiter.limit([{ checks: [{ counter: 'short', limit: 10, durationMs: 1000, cost: 0 }] }]);
      expect(weighted!.results[0]!.remaining).toBe(4); // floor(10 · 0.6) = 6 still counted

      // Two windows later it no longer weighs and is dropped; the hour-long one stays.
      t = 1_700_000_002_000;
      vi.advanceTimersByTime(50);
      expect(limiter.size).toBe(1);
      const [after] = await limiter.limit([{ checks: [{ counter: 'long', limit: 10, durationMs: 3_600_000, cost: 0 }] }]);
      expect(after!.results[0]!.remaining).toBe(9);

      // A swept counter starts from zero.
      const [fresh] = await limiter.limit([{ checks: [{ counter: 'short', limit: 10, durationMs: 1000, cost: 10 }] }]);
      expect(fresh!.passed).toBe(true);
    } finally {
      await limiter.close();
    }
  });

  it('a check that remembers its counter (a hot key\'s) and one that does not count on the same counter, also after it was swept', async () => {
    vi.useFakeTimers();
    let t = 1_700_000_000_500;
    const limiter = new MemoryRateLimiter({ now: () => t, sweepIntervalMs: 50 });
    const kept = { counter: 'shared', limit: 3, durationMs: 1000, cost: 1, memo: {} };
    const plain = { counter: 'shared', limit: 3, durationMs: 1000, cost: 1 };
    const passes = async (check: typeof plain): Promise<boolean> => (await limiter.limit([{ checks: [check] }]))[0]!.passed;
    try {
      expect([await passes(kept), await passes(plain), await passes(kept), await passes(plain)]).toEqual([true, true, true, false]);
      // Swept two windows later; the counter the kept check remembers is gone with it.
      t = 1_700_000_003_000;
      vi.advanceTimersByTime(50);
      expect(limiter.size).toBe(0);
      // Both count on the one new counter: three pass in all, whichever check takes them.
      expect([await passes(kept), await passes(plain), await passes(kept), await passes(kept)]).toEqual([true, true, true, false]);
      expect(await passes(plain)).toBe(false);
      expect(limiter.size).toBe(1);
    } finally {
      await limiter.close();
    }
  });

  it('close() stops the sweeper', async () => {
    vi.useFakeTimers();
    let t = 500;
    const limiter = new MemoryRateLimiter({ now: () => t, sweepIntervalMs: 50 });
    await limiter.limit([{ checks: [{ counter: 'a', limit: 1, durationMs: 1000, cost: 1 }] }]);
    await limiter.close();
    t = 10_000;
    vi.advanceTimersByTime(500);
    expect(limiter.size).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
