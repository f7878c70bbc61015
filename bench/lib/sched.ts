/**
 * What a server's event loop waited behind while it was ready to run: `perf sched` over a window of
 * a fixed-rate run; each time the event loop got a CPU, how long since it was ready to run (woken,
 * or preempted), and which task had that CPU just before. A p99 at half rate moves with the host
 * between runs; these are the waits themselves and whose they were (bench/README.md, "what the
 * event loop waits behind").
 */
import { spawn, spawnSync } from 'node:child_process';

/** A wait this long or longer is counted: about the p99 of a verification at half rate. */
export const LONG_WAIT_MS = 0.3;

export interface WaitsBehind {
  /** Waits of LONG_WAIT_MS or more, per second. */
  readonly count: number;
  /** Their length, ms per second. */
  readonly ms: number;
}

export interface SchedWaits {
  /** Times the event loop got a CPU, per second. */
  readonly wakeups: number;
  /** Long waits by what ran before: another thread of the same process, the idle task, anything else. */
  readonly own: WaitsBehind;
  readonly idle: WaitsBehind;
  readonly other: WaitsBehind;
}

export function perfSchedUsable(): boolean {
  return spawnSync('perf', ['sched', 'record', '-o', '/dev/null', '--', 'true'], { stdio: 'ignore' }).status === 0;
}

/** Records every CPU's scheduler events for `seconds` into `file`; perf itself runs with `prefix` (taskset: off the servers' CPU). */
export async function recordSched(file: string, seconds: number, prefix: readonly string[]): Promise<void> {
  const command = [...prefix, 'perf', 'sched', 'record', '-a', '-o', file, '--', 'sleep', String(seconds)];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`perf sched record exited with ${code}`);
}

// `perf sched timehist`: time, [cpu], task name[tid] or name[tid/pid], wait, scheduling delay, run time (ms).
const LINE = /^\s*[\d.]+\s+\[(\d+)\]\s+(.+?)\s+[\d.]+\s+([\d.]+)\s+[\d.]+\s*$/;
const THREAD = /\[(\d+)(?:\/(\d+))?\]$/;

/** The waits of the event loop of process `pid` (its thread whose id is the pid) in a recording `seconds` long. */
export function schedWaits(file: string, pid: number, seconds: number): SchedWaits {
  const out = spawnSync('perf', ['sched', 'timehist', '-i', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`perf sched timehist failed: ${out.stderr}`);
  return waitsIn(out.stdout, pid, seconds);
}

/** schedWaits from the text of `perf sched timehist`, where each line is a run of a task that ended at its time. */
export function waitsIn(timehist: string, pid: number, seconds: number): SchedWaits {
  const before = new Map<string, string>();
  let wakeups = 0;
  const sums = { own: { count: 0, ms: 0 }, idle: { count: 0, ms: 0 }, other: { count: 0, ms: 0 } };
  for (const line of timehist.split('\n')) {
    const m = LINE.exec(line);
    if (m === null) continue;
    const [, cpu, task, delay] = m as unknown as [string, string, string, string];
    const ids = THREAD.exec(task);
    if (ids !== null && Number(ids[1]) === pid && ids[2] === undefined) {
      wakeups++;
      const ms = Number(delay);
      if (ms >= LONG_WAIT_MS) {
        const prev = before.get(cpu) ?? '';
        const prevIds = THREAD.exec(prev);
        const sum = prev === '<idle>' ? sums.idle : prevIds !== null && Number(prevIds[2]) === pid ? sums.own : sums.other;
        sum.count++;
        sum.ms += ms;
      }
    }
    before.set(cpu, task);
  }
  const perSecond = (w: WaitsBehind): WaitsBehind => ({ count: w.count / seconds, ms: w.ms / seconds });
  return { wakeups: wakeups / seconds, own: perSecond(sums.own), idle: perSecond(sums.idle), other: perSecond(sums.other) };
}
