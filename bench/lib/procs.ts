/**
 * Every process the bench starts: the uWS baseline, keygate (embedded, Redis, Redis Cluster) and
 * redis-server, all on 127.0.0.1 and free ports, CPU-pinned, and stopped by pid at the end, also on
 * Ctrl-C or a failure (stopAll is idempotent and runs from the signal handlers too).
 *
 * Pinning: every thread of the server under test on CPU 0 (its event loop and its other threads:
 * keygate's analytics writer, V8's garbage collector helpers, libuv's pool), the load generator (wrk,
 * or this process for autocannon) and redis-server on CPU 1. All of a server's work is thus paid
 * for by its own core, as on a machine where keygate has one core to itself, and none of it slows
 * the load generator. On a machine with one CPU nothing is pinned.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedisCluster, startRedisStandalone, type RedisCluster, type RedisStandalone } from '../../test/support/redis-servers.js';
import { CLI_JS, freePort, MAIN_JS, PROJECT_DIR, spawnKeygate, type ChildKeygate } from '../../test/support/process.js';

export const SERVER_CPU = 0;
export const LOAD_CPU = 1;
const PINNING = cpus().length >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Pins a process and all its threads (threads created later inherit it). */
export function pin(pid: number, cpu: number): void {
  if (!PINNING) return;
  spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

export const threadsOf = (pid: number): number[] => readdirSync(`/proc/${pid}/task`).map(Number);

/** A Node server, every thread of it, on SERVER_CPU; threads it starts later inherit the CPU. */
export function pinServer(pid: number): void {
  pin(pid, SERVER_CPU);
}

export function tasksetPrefix(cpu: number): string[] {
  return PINNING ? ['taskset', '-c', String(cpu)] : [];
}

type Stopper = () => Promise<void>;
const stoppers = new Map<string, Stopper>();
const tempDirs: string[] = [];

export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `keygate-bench-${name}-`));
  tempDirs.push(dir);
  return dir;
}

let stopping: Promise<void> | undefined;

/** Stops everything started (by pid), removes temporary folders. Safe to call more than once. */
export function stopAll(): Promise<void> {
  stopping ??= (async () => {
    const all = [...stoppers.entries()].reverse();
    stoppers.clear();
    for (const [name, stop] of all) {
      await Promise.race([stop(), new Promise((r) => setTimeout(r, 15_000))]).catch((err: unknown) => {
        process.stderr.write(`bench: stopping ${name} failed: ${String(err)}\n`);
      });
    }
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  })();
  return stopping;
}

export function installSignalHandlers(): void {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping every process it started…\n`);
      void stopAll().finally(() => process.exit(130));
    });
  }
}

export interface Server {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** The minimal uWS fixed-reply server (bench/baseline-server.ts), listening with the exclusive-port flag. */
export async function startBaseline(): Promise<Server> {
  return startUwsScript('baseline', 'baseline-server.ts', []);
}

/** The minimal verification server (bench/minimal-verify-server.ts) for the keys of `bodiesFile`. */
export async function startReference(bodiesFile: string): Promise<Server> {
  return startUwsScript('reference', 'minimal-verify-server.ts', [bodiesFile], { KEYGATE_BENCH_ROOT_KEY: ROOT_KEY });
}

/** A bench/ server script (PORT first), every thread on the server CPU; ready once it prints "listening". */
async function startUwsScript(name: string, file: string, args: readonly string[], env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const script = fileURLToPath(new URL(`../${file}`, import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, String(port), ...args], {
    cwd: PROJECT_DIR, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout!.on('data', (c) => { output += String(c); });
  child.stderr!.on('data', (c) => { output += String(c); });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${output}`)), 15_000);
    child.stdout!.on('data', () => { if (output.includes('listening')) { clearTimeout(timer); resolve(); } });
    void exited.then(() => { clearTimeout(timer); reject(new Error(`${name} exited:\n${output}`)); });
  });
  pinServer(child.pid!);
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await exited;
  };
  stoppers.set(`${name} ${child.pid}`, stop);
  return { name, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop };
}

export const ROOT_KEY = `bench-root-${process.pid}-${Date.now()}`;

export type Mode = 'embedded' | 'redis' | 'cluster';

export interface KeygateServer extends Server {
  readonly mode: Mode;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly child: ChildKeygate;
}

/**
 * From here a started keygate's output is read and dropped (as a log collector would take it),
 * not kept in this process: at LOG_LEVEL=info a line per request for minutes is hundreds of MB.
 * Its warnings and errors are printed to the bench's stderr as they come (`name` says whose): they
 * tell a disturbed run (a cache bypassed, Redis unreachable) from a slow build.
 */
export function dropOutput(child: ChildKeygate, name = 'keygate'): ChildKeygate {
  for (const stream of [child.process.stdout!, child.process.stderr!]) {
    stream.removeAllListeners('data');
    const tap = warningTap((line) => process.stderr.write(`bench: ${name} logged: ${line}\n`));
    stream.on('data', tap);
  }
  return child;
}

/** pino's level field of warn (40), error (50) and fatal (60) lines: request lines are info (30). */
const LOUD_LEVELS = ['{"level":40', '{"level":50', '{"level":60'].map((marker) => Buffer.from(marker));
/** Loud lines printed per stream; past it they are only counted. */
const LOUD_LINES_SHOWN = 50;

/**
 * Finds warn and above in JSON log chunks without splitting them into lines (the bench reads
 * keygate's output on the load generator's core). A line cut by a chunk boundary is looked at
 * with the part before it; pretty (non-JSON) output is not recognised.
 */
export function warningTap(print: (line: string) => void): (chunk: Buffer) => void {
  let carry = Buffer.alloc(0);
  let shown = 0;
  let hidden = 0;
  return (chunk) => {
    const end = chunk.lastIndexOf(10);
    if (end < 0) {
      carry = Buffer.concat([carry, chunk]);
      return;
    }
    const text = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, end + 1)]) : chunk.subarray(0, end + 1);
    carry = Buffer.from(chunk.subarray(end + 1));
    for (const marker of LOUD_LEVELS) {
      for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
        if (at > 0 && text[at - 1] !== 10) continue;
        if (shown >= LOUD_LINES_SHOWN) {
          if (++hidden % 1000 === 1) print(`(${hidden} more warning or error line(s) not shown)`);
          continue;
        }
        shown++;
        print(text.toString('utf8', at, text.indexOf(10, at)));
      }
    }
  };
}

/** Levels at which keygate logs that it listens; below them readiness is read from /v2/liveness. */
const LISTENING_LOGGED = ['info', 'debug', 'trace'];

/**
 * The node flags `npm start` runs keygate with (package.json), so the bench measures what users
 * run. Given as NODE_OPTIONS, which a variant's own NODE_OPTIONS replaces (bench/ab.ts).
 */
const START_NODE_FLAGS = (JSON.parse(readFileSync(join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts: { start: string } })
  .scripts.start.split(/\s+/).filter((word) => word.startsWith('--')).join(' ');

/** `script`: another build's main.js (bench/ab.ts). */
export async function startKeygate(mode: Mode, name: string, extraEnv: Record<string, string> = {}, script = MAIN_JS): Promise<KeygateServer> {
  const dataDir = tempDir(name);
  // The defaults users get: LOG_LEVEL=info (a line per request), METRICS=on and npm start's node
  // flags, unless a variant says otherwise.
  const env: Record<string, string> = { DATA_DIR: dataDir, ROOT_KEY, LOG_LEVEL: 'info', NODE_OPTIONS: START_NODE_FLAGS, ...extraEnv };
  // Started on its CPU, as an operator gives keygate one (taskset, a cpuset): every thread is there
  // from its first instruction, and keygate sees the one CPU it has. Pinned again below all the same.
  const child = await spawnKeygate({ COMMAND_PREFIX: tasksetPrefix(SERVER_CPU).join(' '), ...env }, script, LISTENING_LOGGED.includes(env.LOG_LEVEL!) ? 'log' : 'liveness');
  dropOutput(child, `keygate ${name}`);
  const pid = child.process.pid!;
  pinServer(pid);
  const stop = async (): Promise<void> => { await child.kill('SIGTERM'); };
  stoppers.set(`keygate ${name} ${pid}`, stop);
  return { name, mode, url: child.url, pid, dataDir, env, child, stop };
}

export async function startRedis(): Promise<RedisStandalone> {
  const redis = await startRedisStandalone();
  pin(redis.pid, LOAD_CPU);
  stoppers.set(`redis-server ${redis.pid}`, () => redis.stop(true));
  return redis;
}

export async function startCluster(): Promise<RedisCluster> {
  const cluster = await startRedisCluster(3);
  for (const m of cluster.masters) pin(m.pid, LOAD_CPU);
  stoppers.set(`redis cluster ${cluster.masters.map((m) => m.pid).join(',')}`, () => cluster.stop());
  return cluster;
}

/** `keygate migration create --algorithm sha256` in the server's DATA_DIR; returns the migration id. */
export function createMigration(server: KeygateServer): string {
  const result = spawnSync(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'sha256', '--name', 'bench'], {
    env: { PATH: process.env.PATH ?? '', ...server.env, LOG_LEVEL: 'warn' }, encoding: 'utf8', timeout: 30_000, cwd: PROJECT_DIR,
  });
  if (result.status !== 0) throw new Error(`migration create failed: ${result.stdout}${result.stderr}`);
  return (JSON.parse(result.stdout) as { id: string }).id;
}

/** VmRSS, RssAnon and RssFile of a process, in bytes (from /proc/<pid>/status). */
export function rssOf(pid: number): { rss: number; anon: number; file: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}
