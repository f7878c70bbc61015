/**
 * Time the hypervisor gave this VM's CPUs to other guests ("steal", /proc/stat), as a share of
 * all CPU time between two readings. On a shared VM it is the plainest sign of a noisy spell: the
 * same build's figures move with it, so every run prints it next to its results.
 */
import { readFileSync } from 'node:fs';

export interface HostCpu {
  /** Clock ticks of every CPU: user, nice, system, idle, iowait, irq, softirq, steal. */
  readonly total: number;
  readonly steal: number;
}

/** The machine-wide `cpu` line of /proc/stat's text; null when it has no such line. */
export function parseHostCpu(procStat: string): HostCpu | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (line === undefined) return null;
  // guest and guest_nice (fields 9 and 10) are already inside user and nice: not added again.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return null;
  return { total: ticks.reduce((a, b) => a + b, 0), steal: ticks[7]! };
}

export function readHostCpu(): HostCpu | null {
  try {
    return parseHostCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null; // not Linux
  }
}

/** Steal between two readings as a fraction of all CPU time then; undefined when unknown. */
export function stealShare(before: HostCpu | null, after: HostCpu | null): number | undefined {
  if (before === null || after === null || after.total <= before.total) return undefined;
  return (after.steal - before.steal) / (after.total - before.total);
}

/** "3.1 % of CPU time went to other guests (steal)", or '' when unknown. */
export function describeSteal(share: number | undefined): string {
  return share === undefined ? '' : `${(share * 100).toFixed(1)} % of this machine's CPU time went to other guests of its host (steal)`;
}
