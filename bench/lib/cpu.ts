/**
 * CPU time a server spent, split into its event-loop thread (the thread whose id is the pid) and
 * every other thread (analytics writer, V8's garbage collector helpers, libuv's pool), from
 * /proc/<pid>/task/<tid>/. Threads that ended between two readings are lost to the second
 * one, which under-counts them: keygate's threads live as long as the process.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

export interface CpuReading {
  /** Seconds of CPU, user and system. */
  readonly eventLoopS: number;
  readonly otherThreadsS: number;
}

/**
 * A thread's CPU seconds: the scheduler's own count of the time it ran (schedstat, nanoseconds)
 * where the kernel keeps it, else utime + stime from stat. Those come in whole clock ticks (10 ms
 * here), so a background thread that runs a few hundred ms in a round is off by a few per cent.
 */
function threadSeconds(pid: number, tid: number): number {
  try {
    const ran = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ', 1)[0]);
    if (Number.isFinite(ran)) return ran / 1e9;
  } catch {
    // no schedstat (a kernel without it) or the thread ended: stat below
  }
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the thread name, which may hold spaces: state is the first, utime the 12th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0; // the thread ended meanwhile
  }
}

export function readCpu(pid: number): CpuReading {
  let other = 0;
  let main = 0;
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    const tid = Number(entry);
    if (tid === pid) main = threadSeconds(pid, tid);
    else other += threadSeconds(pid, tid);
  }
  return { eventLoopS: main, otherThreadsS: other };
}

/** CPU µs per request between two readings. */
export function usPerRequest(before: CpuReading, after: CpuReading, requests: number): { eventLoopUs: number; otherThreadsUs: number } {
  const n = Math.max(requests, 1);
  return {
    eventLoopUs: ((after.eventLoopS - before.eventLoopS) * 1e6) / n,
    otherThreadsUs: ((after.otherThreadsS - before.otherThreadsS) * 1e6) / n,
  };
}

/** CPU seconds per thread, labelled by its name (`comm`) and thread id. */
export function readThreadsByName(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const entry of readdirSync(`/proc/${pid}/task`)) {
    const tid = Number(entry);
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended meanwhile
    }
    // Worker threads all show as "node": the thread id tells them apart (stable for a process's life).
    const label = tid === pid ? `${name} (event loop)` : `${name} ${tid}`;
    byName.set(label, (byName.get(label) ?? 0) + threadSeconds(pid, tid));
  }
  return byName;
}
