/** Commands Redis itself counted (INFO commandstats), summed over every given server, without INFO. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cli } from '../../test/support/redis-servers.js';

/** `usec`: the CPU time Redis spent in those commands (commandstats), summed. */
export function redisCalls(ports: readonly number[]): { total: number; usec: number; byCommand: Record<string, number>; usecByCommand: Record<string, number> } {
  const byCommand: Record<string, number> = {};
  const usecByCommand: Record<string, number> = {};
  let total = 0;
  let usec = 0;
  for (const port of ports) {
    for (const m of cli(port, ['INFO', 'commandstats']).matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
      if (m[1] === 'info') continue; // our own probes
      byCommand[m[1]!] = (byCommand[m[1]!] ?? 0) + Number(m[2]);
      usecByCommand[m[1]!] = (usecByCommand[m[1]!] ?? 0) + Number(m[3]);
      total += Number(m[2]);
      usec += Number(m[3]);
    }
  }
  return { total, usec, byCommand, usecByCommand };
}

export function diffCalls(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(after)) if (v - (before[k] ?? 0) > 0) out[k] = v - (before[k] ?? 0);
  return out;
}

/**
 * Commands clients sent, apart from those Lua scripts ran (which INFO commandstats counts too):
 * MONITOR on every server, lines from `[db lua]` are the scripts' own. Used only during the
 * calls-per-verification run (MONITOR costs Redis some CPU), never during the timed runs.
 * MONITOR output can lag behind on a busy machine: stop() sends a marker (ECHO) to every server
 * and counts up to it, so nothing still in flight is lost when the reader is stopped.
 */
const MARKER = 'keygate-bench-monitor-end';
export function monitorCommands(ports: readonly number[]): { stop(): Promise<{ sent: number; inScripts: number }> } {
  const watchers = ports.map((port) => {
    const cli = spawn('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'monitor'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const awk = spawn('awk', [`/${MARKER}/ { print c + 0, l + 0; exit } /^[0-9.]+ \\[[0-9]+ lua\\]/ { l++; next } /^[0-9.]+ \\[/ { c++ }`], { stdio: [cli.stdout, 'pipe', 'ignore'] });
    let out = '';
    awk.stdout!.on('data', (d) => { out += String(d); });
    const done = once(awk, 'exit');
    return { cli, done, out: () => out };
  });
  return {
    async stop() {
      let sent = 0;
      let inScripts = 0;
      for (const port of ports) cli(port, ['ECHO', MARKER]);
      for (const w of watchers) {
        await Promise.race([w.done, new Promise((r) => setTimeout(r, 60_000))]);
        w.cli.kill('SIGTERM');
        await w.done;
        const [c, l] = w.out().trim().split(' ').map(Number);
        sent += c ?? 0;
        inScripts += l ?? 0;
      }
      return { sent, inScripts };
    },
  };
}

/**
 * CPU seconds the given redis-servers have used (INFO cpu: user + system of the main thread and
 * its helpers), summed: what Redis really spent, network reads and writes included. commandstats
 * cannot say it: it counts a script's commands both inside the script's time and on their own.
 */
export function redisCpuSeconds(ports: readonly number[]): number {
  let total = 0;
  for (const port of ports) {
    const info = cli(port, ['INFO', 'cpu']);
    const field = (name: string): number => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(info)?.[1] ?? NaN);
    total += field('used_cpu_user') + field('used_cpu_sys');
  }
  return total;
}
