/**
 * Max throughput with wrk (-t1 -c100, the POST script bench/post.lua), pinned to the load CPU
 * unless the target is remote.
 * wrk, not autocannon: autocannon saturates its own core below what
 * the uWS baseline serves.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOAD_CPU, tasksetPrefix } from './procs.js';
import { log, Progress } from './progress.js';

const POST_LUA = fileURLToPath(new URL('../post.lua', import.meta.url));

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** Installs wrk from the Debian packages when it is missing (the bench machine runs as root). */
export function ensureWrk(): void {
  if (spawnSync('wrk', ['-v']).error === undefined) return;
  log('wrk is missing: installing it from the Debian packages (apt-get install -y wrk)…');
  const r = spawnSync('sh', ['-c', 'apt-get install -y wrk || (apt-get update && apt-get install -y wrk)'], { stdio: 'inherit' });
  if (r.status !== 0 || spawnSync('wrk', ['-v']).error !== undefined) throw new Error('wrk is needed: apt-get install -y wrk');
}

export async function runWrk(opts: {
  url: string; bodiesFile: string; rootKey: string; durationS: number; connections?: number; label: string; quiet?: boolean;
  onTick?: () => string;
  /** false for a remote target: the load generator may use every CPU. */
  pinToLoadCpu?: boolean;
  /** The root key goes to wrk in its environment, not in its arguments (which ps shows). */
  rootKeyInEnv?: boolean;
  /** Aborting stops wrk; the run then fails. */
  signal?: AbortSignal;
}): Promise<WrkResult> {
  const pinning = opts.pinToLoadCpu === false ? [] : tasksetPrefix(LOAD_CPU);
  const [cmd, ...args] = [...pinning, 'wrk', '-t1', `-c${opts.connections ?? 100}`, `-d${opts.durationS}s`, '--timeout', '5s',
    '-s', POST_LUA, opts.url, '--', opts.bodiesFile, opts.rootKeyInEnv ? '-' : opts.rootKey];
  const env = opts.rootKeyInEnv ? { env: { ...process.env, KEYGATE_BENCH_ROOT_KEY: opts.rootKey } } : {};
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'], ...env });
  const stop = (): void => { child.kill('SIGTERM'); };
  if (opts.signal?.aborted) stop(); else opts.signal?.addEventListener('abort', stop, { once: true });
  let out = '';
  child.stdout.on('data', (c) => { out += String(c); });
  child.stderr.on('data', (c) => { out += String(c); });
  const progress = opts.quiet ? undefined : new Progress(opts.label, opts.durationS, opts.onTick);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  opts.signal?.removeEventListener('abort', stop);
  const line = out.split('\n').find((l) => l.startsWith('JSON '));
  if (code !== 0 || !line) {
    progress?.done(opts.signal?.aborted ? 'stopped' : 'failed');
    throw new Error(`wrk failed (${code}) for ${opts.label}:\n${out}`);
  }
  const j = JSON.parse(line.slice(5)) as { requests: number; duration_us: number; p50_us: number; p99_us: number; p999_us: number; errors: number; non2xx: number };
  const result: WrkResult = {
    requests: j.requests, rps: j.requests / (j.duration_us / 1e6), p50Ms: j.p50_us / 1000, p99Ms: j.p99_us / 1000, p999Ms: j.p999_us / 1000,
    errors: j.errors, non2xx: j.non2xx,
  };
  progress?.done(`${(result.rps / 1000).toFixed(1)}k req/s${result.errors + result.non2xx > 0 ? `  errors ${result.errors}, non-2xx ${result.non2xx}` : ''}`);
  return result;
}
