/**
 * The bench prints how much of the VM's CPU time its host gave to other guests during a run
 * (bench/lib/steal.ts), so a reader can tell a noisy spell from a slower build.
 */
import { describe, expect, it } from 'vitest';
import { describeSteal, parseHostCpu, readHostCpu, stealShare } from '../../bench/lib/steal.js';

const STAT = (user: number, steal: number, guest = 0): string =>
  `cpu  ${user} 10 200 5000 30 0 40 ${steal} ${guest} 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 123\n`;

describe('host steal', () => {
  it('adds the eight time fields of the machine-wide line, not guest time already inside user', () => {
    expect(parseHostCpu(STAT(1000, 500, 700))).toEqual({ total: 1000 + 10 + 200 + 5000 + 30 + 0 + 40 + 500, steal: 500 });
  });

  it('is the steal between two readings over all the time between them', () => {
    const share = stealShare(parseHostCpu(STAT(1000, 500)), parseHostCpu(STAT(1300, 600)));
    expect(share).toBeCloseTo(100 / 400, 10);
    expect(describeSteal(share)).toBe("25.0 % of this machine's CPU time went to other guests of its host (steal)");
  });

  it('says nothing when it cannot tell', () => {
    expect(parseHostCpu('intr 1\n')).toBeNull();
    expect(stealShare(null, parseHostCpu(STAT(1, 1)))).toBeUndefined();
    expect(stealShare(parseHostCpu(STAT(5, 1)), parseHostCpu(STAT(5, 1)))).toBeUndefined();
    expect(describeSteal(undefined)).toBe('');
  });

  it('reads this machine', () => {
    const now = readHostCpu();
    expect(now?.total).toBeGreaterThan(0);
    expect(now!.steal).toBeGreaterThanOrEqual(0);
  });
});
