/**
 * Max throughput with wrk (-t1 -c100, the POST script bench/post.lua), pinned to the load CPU.
 * wrk, not autocannon: autocannon saturates its own core near 77k req/s (perf anchors), below what
 * the uWS baseline serves.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LOAD_CPU, tasksetPrefix } from './procs.js';
import { Progress } from './progress.js';

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

export async function runWrk(opts: {
  url: string; bodiesFile: string; rootKey: string; durationS: number; connections?: number; label: string; quiet?: boolean;
  onTick?: () => string;
}): Promise<WrkResult> {
  const [cmd, ...args] = [...tasksetPrefix(LOAD_CPU), 'wrk', '-t1', `-c${opts.connections ?? 100}`, `-d${opts.durationS}s`, '--timeout', '5s',
    '-s', POST_LUA, opts.url, '--', opts.bodiesFile, opts.rootKey];
  const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => { out += String(c); });
  child.stderr.on('data', (c) => { out += String(c); });
  const progress = opts.quiet ? undefined : new Progress(opts.label, opts.durationS, opts.onTick);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('JSON '));
  if (code !== 0 || !line) {
    progress?.done('failed');
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
