/**
 * Latency at a fixed offered load with autocannon's rate mode (overallRate), run in this process
 * (pinned to the load CPU). Latencies are taken from every response's own timing (hrtime, in
 * µs), not from autocannon's histogram, which keeps whole milliseconds.
 *
 * autocannon's rate mode is per connection and per wall-clock second: each connection sends its
 * share (rate / connections) back to back at the start of each second, then waits. With all
 * connections' seconds aligned, 20k req/s offered over 100 connections is a burst of 100
 * concurrent requests at every second's start, not an even arrival rate. `stagger` starts the
 * connections as separate autocannon instances spread over one second, so their bursts interleave
 * and the server sees the offered rate evenly spread (what "fixed offered load" means); both
 * shapes can be measured (see bench/README.md).
 *
 * Only the `durationS` seconds in which every instance runs are measured: a settle second after
 * the last instance started, and none of the last one. While instances are being set up or wound
 * down, this process stalls for tens to hundreds of milliseconds, which would be counted as the
 * server's latency (whatever the server).
 *
 * Staggered, each connection sends its own share of the bodies, each prebuilt once (autocannon
 * rebuilds a request per send when it is given `setupRequest`), so the load generator's work per
 * request is the same whatever the server and however many bodies there are.
 */
import autocannon from 'autocannon';
import { Progress } from './progress.js';
import { median } from './report.js';

export interface RateResult {
  readonly offered: number;
  readonly achieved: number;
  readonly responses: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
  readonly errors: number;
  readonly non2xx: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** Bodies g, g + groups, g + 2 × groups, …: every body is sent by some connection. */
function shareOf(bodies: readonly string[], g: number, groups: number): readonly string[] {
  if (bodies.length <= groups) return [bodies[g % bodies.length]!];
  return bodies.filter((_, i) => i % groups === g);
}

/**
 * One instance with many connections (the burst shape): the bodies in turn across all of them,
 * rebuilt per send, as a prebuilt list would have every connection send the same body at once.
 */
function inTurn(bodies: readonly string[]): autocannon.Request[] {
  let next = 0;
  return [{ setupRequest: (req: autocannon.Request) => { req.body = bodies[next++ % bodies.length]; return req; } }];
}

export async function runAtRate(opts: {
  url: string; bodies: readonly string[]; rootKey: string; rate: number; durationS: number; connections: number; stagger: boolean; label: string;
  /** Aborting stops every autocannon instance; the result covers what was answered until then. */
  signal?: AbortSignal;
}): Promise<RateResult> {
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const bodies = opts.bodies;
  const groups = opts.stagger ? opts.connections : 1;
  const perGroupConns = opts.stagger ? 1 : opts.connections;
  const perGroupRate = opts.rate / groups;
  const startS = opts.stagger ? 1 : 0;
  const settleS = 1;
  const tailS = 1;
  const runS = startS + settleS + opts.durationS + tailS;
  const progress = new Progress(opts.label, runS + startS, () => `${latencies.length} responses`);
  const started = performance.now();
  const measureFrom = started + (startS + settleS) * 1000;
  const measureUntil = measureFrom + opts.durationS * 1000;
  const measured = (): boolean => { const now = performance.now(); return now >= measureFrom && now < measureUntil; };
  const runs: Promise<unknown>[] = [];
  const instances: autocannon.Instance[] = [];
  for (let g = 0; g < groups; g++) {
    // Instance g starts g/groups of a second late.
    const delay = opts.stagger ? Math.round((1000 * g) / groups) : 0;
    runs.push(new Promise((resolve, reject) => setTimeout(() => {
      if (opts.signal?.aborted) { resolve(undefined); return; }
      const instance = autocannon({
        url: opts.url,
        method: 'POST',
        connections: perGroupConns,
        overallRate: perGroupRate,
        // Every instance runs on through the measured seconds and the tail second after them.
        duration: runS,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.rootKey}` },
        requests: groups === 1 && bodies.length > 1 ? inTurn(bodies) : shareOf(bodies, g, groups).map((body) => ({ body })),
      }, (err: unknown, result: unknown) => (err ? reject(err as Error) : resolve(result)));
      // Failures count whenever they happen; latencies only in the measured seconds.
      instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
        if (status < 200 || status >= 300) non2xx++;
        else if (measured()) latencies.push(ms);
      });
      instance.on('reqError', () => { errors++; });
      instances.push(instance);
    }, delay)));
  }
  const stopInstances = (): void => { for (const instance of instances) instance.stop(); };
  opts.signal?.addEventListener('abort', stopInstances, { once: true });
  await Promise.all(runs);
  opts.signal?.removeEventListener('abort', stopInstances);
  const elapsedS = Math.min(Math.max(performance.now(), measureFrom) - measureFrom, opts.durationS * 1000) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  const result: RateResult = {
    offered: opts.rate, achieved: latencies.length / Math.max(elapsedS, 0.001), responses: latencies.length,
    p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), p999Ms: percentile(sorted, 0.999), maxMs: sorted[sorted.length - 1] ?? NaN,
    errors, non2xx,
  };
  progress.done(`${(result.achieved / 1000).toFixed(1)}k req/s  p50 ${result.p50Ms.toFixed(3)}  p99 ${result.p99Ms.toFixed(3)}  p99.9 ${result.p999Ms.toFixed(3)} ms${errors + non2xx ? `  errors ${errors}, non-2xx ${non2xx}` : ''}`);
  return result;
}

/**
 * Several rounds' runs at one rate as one: the median of each percentile (and of what was
 * achieved), the worst maximum, every error counted.
 */
export function medianRate(runs: readonly RateResult[]): RateResult {
  const of = (pick: (r: RateResult) => number): number => median(runs.map(pick));
  return {
    offered: runs[0]!.offered, achieved: of((r) => r.achieved), responses: runs.reduce((sum, r) => sum + r.responses, 0),
    p50Ms: of((r) => r.p50Ms), p99Ms: of((r) => r.p99Ms), p999Ms: of((r) => r.p999Ms), maxMs: Math.max(...runs.map((r) => r.maxMs)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0), non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
}
