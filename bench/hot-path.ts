/**
 * `npm run bench:hot-path -- [options]`: the JavaScript cost of one verifyKey, without the network.
 * Each variant (a build) runs in its own process, pinned to one CPU with every thread it starts,
 * and drives its own verifyKey route in a loop through stand-ins for uWS's request and response
 * (bench/hot-path-worker.ts). What is left out is what every uWS server pays alike (sockets,
 * HTTP parsing in uWS's C++), so this isolates what keygate adds, with far less noise than a wrk
 * run on a shared VM: rounds interleave the variants, medians are quoted.
 * It guides changes between full runs; the budgets are `npm run bench`'s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { MAIN_JS, PROJECT_DIR } from '../test/support/process.js';
import { readThreadsByName } from './lib/cpu.js';
import { installSignalHandlers, SERVER_CPU, stopAll, tasksetPrefix, tempDir } from './lib/procs.js';
import { log } from './lib/progress.js';
import { median } from './lib/report.js';
import { parseSettings } from './lib/settings.js';

const HELP = `Usage: npm run bench:hot-path -- [options]
  --main PATH      a build's main.js (repeatable; default dist/main.js)
  --env K=V,K=V    settings of one variant (repeatable: one variant each, on the first --main)
  --scenario S     one (default), keys or limits (embedded; as in bench:ab)
  --keys N         keys seeded (default 2000)
  --identities N   identities of the limits scenario (default 20)
  --rounds N       interleaved rounds (default 7)
  --seconds S      seconds per round and variant (default 2)
  --together       the variants run at the same time on the one CPU, each round, instead of in turn:
                   a slow spell of the host slows every variant alike, so the rounds' ratios agree
                   within a few per cent. The scheduler shares the CPU thread by thread, so the
                   ratio weighs the event loops; compare the other threads' µs on their own
  --starts N       run it all N times, each variant in a new process each time (default 1), and give
                   the median of the starts' ratios: one process of a build ran 2–3 % faster or
                   slower than another of the same build in every round, so one start per variant
                   cannot tell differences that small
Every variant runs at LOG_LEVEL=info and METRICS=on unless its --env says otherwise, with npm start's node flags
(--env NODE_FLAGS='…' replaces them, on the command line).`;

const { values } = parseArgs({
  options: {
    main: { type: 'string', multiple: true }, env: { type: 'string', multiple: true }, scenario: { type: 'string', default: 'one' },
    keys: { type: 'string', default: '2000' }, identities: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '7' }, seconds: { type: 'string', default: '2' }, together: { type: 'boolean' },
    starts: { type: 'string', default: '1' }, help: { type: 'boolean' },
  },
});

interface Result { perSecond: number; eventLoopUs: number; otherThreadsUs: number; failed: number }
interface Variant { label: string; child: ChildProcess; lines: AsyncIterator<string>; results: Result[]; threads: Map<string, number>; answered: number }


async function start(label: string, main: string, env: Record<string, string>): Promise<Variant> {
  const worker = new URL('./hot-path-worker.ts', import.meta.url).pathname;
  // NODE_FLAGS: node flags of this variant on its command line (some, like --single-threaded-gc, are refused in NODE_OPTIONS).
  const { NODE_FLAGS: flags = '--max-semi-space-size=32', ...rest } = env;
  const [cmd, ...args] = [...tasksetPrefix(SERVER_CPU), process.execPath, ...flags.split(' ').filter(Boolean), '--import', 'tsx', worker,
    dirname(resolve(main)), values.scenario!, values.keys!, values.identities!];
  const child = spawn(cmd!, args, {
    cwd: PROJECT_DIR, stdio: ['pipe', 'ignore', 'inherit', 'pipe'],
    env: { ...process.env, DATA_DIR: tempDir('hot-path'), LOG_LEVEL: 'info', METRICS: 'on', ...rest },
  });
  const lines = createInterface({ input: child.stdio[3] as Readable })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error(`variant ${label} did not start`);
  return { label, child, lines, results: [], threads: new Map(), answered: 0 };
}

async function round(variant: Variant, seconds: number): Promise<void> {
  const before = readThreadsByName(variant.child.pid!);
  variant.child.stdin!.write(`run ${seconds}\n`);
  const line = await variant.lines.next();
  for (const [name, s] of readThreadsByName(variant.child.pid!)) variant.threads.set(name, (variant.threads.get(name) ?? 0) + s - (before.get(name) ?? 0));
  if (line.done) throw new Error(`variant ${variant.label} stopped`);
  const result = JSON.parse(line.value) as Result;
  if (result.failed > 0) throw new Error(`variant ${variant.label}: ${result.failed} answers were not 200`);
  variant.results.push(result);
  variant.answered += result.perSecond * seconds;
}

async function main(): Promise<void> {
  if (values.help) return log(HELP);
  installSignalHandlers();
  const mains = values.main ?? [MAIN_JS];
  const specs = values.env ? values.env.map((e) => ({ label: `${mains[0]} ${e}`, main: mains[0]!, env: parseSettings(e) }))
    : mains.map((m) => ({ label: m === MAIN_JS ? 'dist' : m, main: m, env: {} }));
  const seconds = Number(values.seconds);
  const together = values.together === true;
  const starts = Number(values.starts);
  /** Per spec, over every start: each round's result, each start's ratio to the first spec, each thread's CPU seconds. */
  const tallies = specs.map((spec) => ({ label: spec.label, results: [] as Result[], startRatios: [] as number[], threads: new Map<string, number>(), answered: 0 }));
  for (let n = 0; n < starts; n++) {
    // Started and seeded at once, so none seeds alone while another waits (one started after the
    // other had seeded ran about 3 % faster, three times out of three; at once, the sign varied).
    const variants = await Promise.all(specs.map((spec) => start(spec.label, spec.main, spec.env)));
    // Together: every variant's round at once, sharing the CPU (the scheduler splits it evenly).
    const roundOfAll = async (): Promise<void> => {
      if (together) await Promise.all(variants.map((v) => round(v, seconds)));
      else for (const v of variants) await round(v, seconds);
    };
    await roundOfAll(); // warm-up, not counted
    for (const v of variants) {
      v.results.length = 0;
      v.threads.clear();
      v.answered = 0;
    }
    for (let r = 0; r < Number(values.rounds); r++) {
      await roundOfAll();
      log(`${starts > 1 ? `start ${n + 1}/${starts}, ` : ''}round ${r + 1}/${values.rounds} done`);
    }
    for (const v of variants) v.child.stdin!.end('quit\n');
    await Promise.all(variants.map((v) => new Promise((resolve) => v.child.once('exit', resolve))));
    variants.forEach((v, i) => {
      const tally = tallies[i]!;
      tally.results.push(...v.results);
      tally.startRatios.push(median(v.results.map((res, r) => res.perSecond / variants[0]!.results[r]!.perSecond)));
      // Thread ids differ between starts: one start's names would not add up with another's.
      if (starts === 1) tally.threads = v.threads;
      tally.answered += v.answered;
    });
  }
  const first = tallies[0]!;
  const rows = tallies.map((v) => {
    const total = v.results.map((res) => res.eventLoopUs + res.otherThreadsUs);
    // One start: the rounds' ratios; more: each start's median, since a process keeps its own speed (see --starts).
    const ratios = starts === 1 ? v.results.map((res, i) => res.perSecond / first.results[i]!.perSecond) : v.startRatios;
    return `| ${v.label} | ${(median(v.results.map((x) => x.perSecond)) / 1000).toFixed(1)}k (${v.results.map((x) => (x.perSecond / 1000).toFixed(1)).join(' ')}) | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}) `
      + `| ${median(v.results.map((x) => x.eventLoopUs)).toFixed(2)} | ${median(v.results.map((x) => x.otherThreadsUs)).toFixed(2)} | ${median(total).toFixed(2)} |`;
  });
  log(`\nverifyKey without the network, scenario ${values.scenario}, ${starts > 1 ? `${starts} starts of ` : ''}${values.rounds} rounds of ${seconds} s, every thread of every variant on CPU ${SERVER_CPU}`
    + `${together ? ', the variants at the same time' : ''}\n`);
  const over = starts === 1 ? 'median of rounds; min–max' : 'median of the starts\' medians; min–max of those';
  log(`| variant | verifications/s (each round) | × first variant (${over}) | event loop µs/verification | other threads µs | all threads µs |`);
  log('|---|---|---|---|---|---|');
  for (const row of rows) log(row);
  if (starts > 1) return;
  log('\nCPU µs per verification of each thread, all rounds (threads below 0.05 µs left out):\n');
  log('| variant | thread | µs |');
  log('|---|---|---|');
  for (const v of tallies) {
    for (const [name, s] of [...v.threads].sort((a, b) => b[1] - a[1])) {
      const us = (s * 1e6) / Math.max(v.answered, 1);
      if (us >= 0.05) log(`| ${v.label} | ${name} | ${us.toFixed(2)} |`);
    }
  }
}

main().then(() => stopAll(), async (err: unknown) => {
  process.stderr.write(`bench:hot-path failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAll();
  process.exit(2);
});
