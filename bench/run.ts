/**
 * `npm run bench [-- --quick] [-- --memory-duration 60] …`: starts the uWS baseline, keygate
 * embedded, on Redis and on a 3-master Redis Cluster, seeds them through the API, measures every
 * scenario (max throughput with wrk, latency at a fixed offered load with autocannon), Redis calls
 * per verification, memory over a long run of distinct keys, and SHA-256 inline vs piscina; prints
 * the tables, checks bench/budgets.json and exits 1 when a budget fails (2 when the run broke;
 * --quick reports the budgets but fails only when the run broke).
 * With --url it load-tests a running deployment instead (bench/remote.ts). See bench/README.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MAIN_JS } from '../test/support/process.js';
import { call, seedScenarioKeys, verifyEach, warmPass, type Seeded } from './lib/api.js';
import { evaluate, median, printReport, type Budgets, type Results } from './lib/report.js';
import { readHostCpu, stealShare } from './lib/steal.js';
import { runMemory } from './lib/memory.js';
import {
  installSignalHandlers, LOAD_CPU, pin, ROOT_KEY, startBaseline, startCluster, startKeygate, startRedis, startReference, stopAll, tempDir, type KeygateServer, type Mode,
} from './lib/procs.js';
import { log } from './lib/progress.js';
import { medianRate, runAtRate, type RateResult } from './lib/rate.js';
import { diffCalls, monitorCommands, redisCalls, redisCpuSeconds } from './lib/redis-calls.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';
import { readCpu, usPerRequest } from './lib/cpu.js';
import { formatHashing, runHashing } from './hashing.js';
import { REFERENCE_SCENARIOS, SCENARIOS, type Scenario } from './scenarios.js';
import { runOperatorMode } from './remote.js';

const HELP = `Usage: npm run bench [-- options]
  --quick                 smoke run (~5 min): 1 round, short runs, 50k keys in the memory run; budgets
                          reported, not failed
  --rounds N              wrk rounds per scenario, medians quoted (default 3; quick 1)
  --duration S            seconds per wrk run (default 8; quick 2)
  --rate-duration S       seconds per fixed-rate latency run (default 10; quick 2)
  --latency-rounds N      fixed-rate rounds (keygate, then the baseline at its rate, every scenario in
                          each round); medians quoted, the p99 budgets on the median of the rounds'
                          ratios (default 3; quick 1)
  --burst                 autocannon's own rate shape (each connection's share sent at every second's start)
                          instead of connections staggered over the second
  --calls-duration S      seconds of the Redis calls-per-verification run (default 10; quick 2)
  --memory-duration S     seconds of the memory run (default 300; quick 10)
  --memory-keys N         distinct keys verified in the memory run (default 1000000; quick 50000)
  --keys N                keys per scenario and server (default 20000; quick 2000)
  --identities N          identities the limited keys are spread over (default 100)
  --skip-memory, --skip-hashing

Operator mode: load-test a running keygate instead of starting local servers (see bench/README.md)
  --url URL               the deployment, e.g. https://keygate.example.com
  --root-key KEY          a root key of it; better: KEYGATE_ROOT_KEY in the environment (not in shell history)
  --skip-create-key       leave out the createKey scenario (the write load)
  --rounds, --duration, --rate-duration, --burst, --identities, --quick as above; --keys defaults to 2000
  It creates only an API keygate-bench-<runid>, identities keygate-bench-<runid>-<i> and keys kgb_… in
  that API, and removes them at the end, also on a failure or Ctrl-C. ratelimitLimit is not run.
`;

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false }, rounds: { type: 'string' }, duration: { type: 'string' }, 'rate-duration': { type: 'string' }, 'latency-rounds': { type: 'string' },
    burst: { type: 'boolean', default: false }, 'calls-duration': { type: 'string' }, 'memory-duration': { type: 'string' },
    'memory-keys': { type: 'string' }, keys: { type: 'string' }, identities: { type: 'string' },
    'skip-memory': { type: 'boolean', default: false }, 'skip-hashing': { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' },
    url: { type: 'string' }, 'root-key': { type: 'string' }, 'skip-create-key': { type: 'boolean', default: false },
  },
});
if (opt.help) { process.stdout.write(HELP); process.exit(0); }
const quick = opt.quick!;
const num = (v: string | undefined, full: number, q: number): number => (v === undefined ? (quick ? q : full) : Number(v));
const durationS = num(opt.duration, 8, 2);
const settings = {
  quick,
  rounds: num(opt.rounds, 3, 1),
  durationS,
  rateDurationS: num(opt['rate-duration'], 10, 2),
  latencyRounds: num(opt['latency-rounds'], 3, 1),
  stagger: !opt.burst,
  callsDurationS: num(opt['calls-duration'], 10, 2),
  memoryDurationS: num(opt['memory-duration'], 300, 10),
  memoryKeys: num(opt['memory-keys'], 1_000_000, 50_000),
  keys: num(opt.keys, 20_000, 2_000),
  identities: num(opt.identities, 100, 100),
  warmupS: quick ? 0 : 2,
  /** The baseline run before each scenario's max-throughput run (ratios are over their median). */
  baselineRunS: Math.max(2, Math.round((durationS * 3) / 8)),
};

if (opt.url !== undefined) {
  process.exit(await runOperatorMode({
    url: opt.url, rootKey: opt['root-key'] ?? process.env.KEYGATE_ROOT_KEY, quick, rounds: settings.rounds, durationS: settings.durationS,
    rateDurationS: settings.rateDurationS, warmupS: settings.warmupS, stagger: settings.stagger, keys: num(opt.keys, 2_000, 2_000),
    identities: settings.identities, skipCreateKey: opt['skip-create-key']!,
  }));
}
if (opt['root-key'] !== undefined || opt['skip-create-key']) {
  process.stderr.write('bench: --root-key and --skip-create-key are for the operator mode: give --url too\n');
  process.exit(2);
}

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const budgets = JSON.parse(readFileSync(join(BENCH_DIR, 'budgets.json'), 'utf8')) as Budgets;

async function main(): Promise<number> {
  installSignalHandlers();
  pin(process.pid, LOAD_CPU);
  ensureWrk();
  if (!existsSync(MAIN_JS)) throw new Error('dist/main.js is missing: run `npm run build` (npm run bench does)');
  const started = Date.now();
  const hostBefore = readHostCpu();
  const work = tempDir('files');
  const results: Results = {
    date: new Date().toISOString(), settings,
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${spawnSync('uname', ['-sr'], { encoding: 'utf8' }).stdout.trim()}`,
    loadavgBefore: loadavg(), throughput: {}, latency: {}, latencyBaseline: {}, calls: {}, seeding: {},
  };
  log(`keygate bench ${quick ? '(quick) ' : ''}— ${results.machine}; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const baseline = await startBaseline();
  const redis = await startRedis();
  const cluster = await startCluster();
  const servers: KeygateServer[] = [
    await startKeygate('embedded', 'embedded'),
    await startKeygate('redis', 'redis', { REDIS_URL: redis.url }),
    await startKeygate('cluster', 'cluster', { REDIS_CLUSTER_NODES: cluster.nodes.join(',') }),
  ];
  // Two more embedded keygates, METRICS=on and off, for verifyKey only: what counting for /metrics
  // costs (budget "metrics cost"). A pair of their own, started together, seeded alike and run in
  // alternating order in each round: the embedded server above has other scenarios' work behind it
  // (its createKey runs grow its data folder), which would count against METRICS=on.
  const [metricsOn, metricsOff] = await Promise.all([
    startKeygate('embedded', 'embedded-metrics-on', { METRICS: 'on' }),
    startKeygate('embedded', 'embedded-metrics-off', { METRICS: 'off' }),
  ]);
  const metricsPair = [metricsOn, metricsOff];
  const redisPorts: Record<string, number[]> = { redis: [redis.port], cluster: cluster.masters.map((m) => m.port) };
  log(`started: baseline ${baseline.url}, ${servers.map((s) => `${s.name} ${s.url}`).join(', ')}, redis :${redis.port}, cluster ${cluster.nodes.join(' ')}`);

  // Seed through the API, write each scenario's bodies, check a sample answer of each.
  const seeded = new Map<string, Seeded>();
  const bodyFiles = new Map<string, string>();
  const bodies = new Map<string, string[]>();
  for (const s of servers) {
    const t = Date.now();
    const seed = await seedScenarioKeys(s.url, ROOT_KEY, settings.keys, settings.identities, (n) => {
      if (process.stdout.isTTY) process.stdout.write(`\r\x1b[2K  … seeding ${s.name}: ${n} keys`);
    });
    if (process.stdout.isTTY) process.stdout.write('\r\x1b[2K');
    seeded.set(s.name, seed);
    results.seeding[s.name] = { keys: settings.keys * 2, identities: settings.identities, seconds: seed.seconds };
    log(`  ✓ seeded ${s.name}: ${settings.keys * 2} keys (half over ${settings.identities} identities with 2 limits) in ${((Date.now() - t) / 1000).toFixed(1)} s (keys.createKey, 64 in flight)`);
    for (const sc of SCENARIOS) {
      const list = sc.bodies(seed);
      const file = join(work, `${s.name}-${sc.id}.txt`);
      writeFileSync(file, `${list.join('\n')}\n`);
      bodyFiles.set(`${s.name}/${sc.id}`, file);
      bodies.set(`${s.name}/${sc.id}`, list);
      await checkSample(s, sc, list);
    }
  }
  for (const s of metricsPair) {
    const seed = await seedScenarioKeys(s.url, ROOT_KEY, settings.keys, settings.identities, () => undefined);
    const sc = SCENARIOS.find((x) => x.id === 'verifyKey')!;
    const list = sc.bodies(seed);
    const file = join(work, `${s.name}-${sc.id}.txt`);
    writeFileSync(file, `${list.join('\n')}\n`);
    bodyFiles.set(`${s.name}/${sc.id}`, file);
    bodies.set(`${s.name}/${sc.id}`, list);
    await checkSample(s, sc, list);
    log(`  ✓ seeded ${s.name} (verifyKey with METRICS=${s.env.METRICS}, for the metrics-cost budget)`);
  }
  // The minimal verification server (bench/minimal-verify-server.ts) on embedded's keys: what a
  // verification with nothing around it reaches on this engine, beside keygate's one-key and
  // 20,000-key rows (reported, no budget).
  const reference = { ...await startReference(bodyFiles.get('embedded/verifyKey')!), name: 'reference' };
  for (const id of REFERENCE_SCENARIOS) {
    bodyFiles.set(`reference/${id}`, bodyFiles.get(`embedded/${id}`)!);
    const data = await call(reference.url, ROOT_KEY, 'keys.verifyKey', JSON.parse(bodies.get(`embedded/${id}`)![0]!));
    if (data.valid !== true) throw new Error(`the reference does not know embedded's ${id} key: ${JSON.stringify(data)}`);
  }
  log(`  ✓ started the reference (minimal verify) on embedded's keys`);
  const baselineFile = join(work, 'baseline.txt');
  writeFileSync(baselineFile, `${JSON.stringify({ key: 'bk_baseline' })}\n`);

  /** A server the rounds measure: keygate, or the reference. */
  type Measured = Pick<KeygateServer, 'name' | 'url' | 'pid'>;
  const target = (s: Measured, sc: Scenario): string => `${s.url}/v2/${sc.procedure}`;
  /** The keygate's mode; undefined for the reference. */
  const modeOf = (s: Measured): Mode | undefined => [...servers, ...metricsPair].find((x) => x.pid === s.pid)?.mode;
  if (settings.warmupS > 0) {
    log(`warm-up (each embedded keygate verifies every key of its verifyKey scenarios once, then ${settings.warmupS} s per scenario, discarded)`);
    await runWrk({ url: `${baseline.url}/v2/keys.verifyKey`, bodiesFile: baselineFile, rootKey: ROOT_KEY, durationS: settings.warmupS, label: 'warm-up baseline', quiet: true });
    // The metrics-cost pair too. An embedded keygate remembers a key from its first verification
    // on, for good: one pass over the keys first, so that no measured round is the one that builds
    // its hot set (seconds of storage reads at 20,000 keys, which the warm-up's seconds may not
    // cover). The Redis modes get such a pass before every measured run (rememberKeysFirst).
    for (const s of [...servers, ...metricsPair, reference]) for (const sc of SCENARIOS) {
      const bodiesFile = bodyFiles.get(`${s.name}/${sc.id}`);
      const list = bodies.get(`${s.name}/${sc.id}`);
      if (modeOf(s) === 'embedded' && sc.procedure === 'keys.verifyKey' && list !== undefined) {
        await warmPass(`${s.name} ${sc.id}`, list, (body) => call(s.url, ROOT_KEY, 'keys.verifyKey', body));
      }
      if (bodiesFile !== undefined) await runWrk({ url: target(s, sc), bodiesFile, rootKey: ROOT_KEY, durationS: settings.warmupS, label: `warm-up ${s.name} ${sc.id}`, quiet: true });
    }
  }

  // Max throughput: rounds interleave the baseline and every scenario. A short baseline run goes
  // before each scenario's, and ratios are over the median of all of them: many baseline runs
  // spread over the whole phase, because the host's noise differs from one run to the next
  // (adjacent runs' deviations were uncorrelated, so dividing by the neighbour's adds its noise).
  const { baselineRunS } = settings;
  log(`max throughput: wrk -t1 -c100 -d${settings.durationS}s, each run after a ${baselineRunS} s run of the baseline, ${settings.rounds} round(s), every server thread on CPU 0, wrk on CPU 1`);
  type Run = WrkResult & { eventLoopUs: number; otherThreadsUs: number; redisUs?: number };
  const raw: Record<string, Run[]> = {};
  /**
   * One wrk run, with the CPU every thread of the server spent per request meanwhile, and with
   * `ports` that of those redis-servers too (every thread, user and system, INFO cpu).
   */
  const measure = async (key: string, pid: number, run: () => Promise<WrkResult>, ports?: readonly number[]): Promise<void> => {
    const before = readCpu(pid);
    const redisBefore = ports ? redisCpuSeconds(ports) : undefined;
    const r = await run();
    const redisUs = ports && redisBefore !== undefined ? ((redisCpuSeconds(ports) - redisBefore) * 1e6) / Math.max(r.requests, 1) : undefined;
    (raw[key] ??= []).push({ ...r, ...usPerRequest(before, readCpu(pid), r.requests), redisUs });
  };
  /**
   * In Redis mode keygate rebuilds what it remembers of a key once it is older than CACHE_TTL_MS
   * (60 s: the net under pub/sub invalidations). A server's previous run of a scenario was minutes
   * ago, so each run would otherwise begin with every key forgotten and measure a cold start: one
   * pass over the keys first, as a deployment verifying them all along has them remembered. The
   * cold pass's own cost is reported with the Redis calls below.
   */
  const rememberKeysFirst = async (server: Measured, sc: Scenario, list: readonly string[] | undefined): Promise<void> => {
    const mode = modeOf(server);
    if (mode === undefined || mode === 'embedded' || sc.procedure !== 'keys.verifyKey' || list === undefined) return;
    await warmPass(`${server.name} ${sc.id}`, list, (body) => call(server.url, ROOT_KEY, 'keys.verifyKey', body));
  };
  const afterBaseline = async (round: number, server: Measured, sc: Scenario): Promise<void> => {
    await measure('baseline', baseline.pid, () => runWrk({ url: `${baseline.url}/v2/keys.verifyKey`, bodiesFile: baselineFile, rootKey: ROOT_KEY, durationS: baselineRunS, label: `round ${round} baseline` }));
    const key = `${server.name}/${sc.id}`;
    await rememberKeysFirst(server, sc, bodies.get(key));
    // Redis's CPU in every round of the limits budget's scenario: a median of rounds spread over
    // the phase, as the throughput's, not one run at one moment of the host's noise.
    const ports = sc.id === 'verifyKeyLimits' ? redisPorts[server.name] : undefined;
    await measure(key, server.pid, () => runWrk({ url: target(server, sc), bodiesFile: bodyFiles.get(key)!, rootKey: ROOT_KEY, durationS: settings.durationS, label: `round ${round} ${server.name} ${sc.id}` }), ports);
  };
  for (let round = 1; round <= settings.rounds; round++) {
    for (const s of servers) for (const sc of SCENARIOS) {
      await afterBaseline(round, s, sc);
      // Each of the pair first in every other round.
      if (s.name === 'embedded' && sc.id === 'verifyKey') for (const m of round % 2 === 1 ? metricsPair : [...metricsPair].reverse()) await afterBaseline(round, m, sc);
      if (s.name === 'embedded' && REFERENCE_SCENARIOS.includes(sc.id)) await afterBaseline(round, reference, sc);
    }
  }
  for (const [key, runs] of Object.entries(raw)) {
    results.throughput[key] = {
      rps: median(runs.map((r) => r.rps)), min: Math.min(...runs.map((r) => r.rps)), max: Math.max(...runs.map((r) => r.rps)),
      p99Ms: median(runs.map((r) => r.p99Ms)), errors: runs.reduce((a, r) => a + r.errors + r.non2xx, 0), rounds: runs.length,
      eventLoopUs: median(runs.map((r) => r.eventLoopUs)), otherThreadsUs: median(runs.map((r) => r.otherThreadsUs)),
      redisUs: runs[0]!.redisUs === undefined ? undefined : median(runs.map((r) => r.redisUs!)),
    };
  }
  // A limited key must still be VALID after all that (limits large enough never to deny).
  for (const s of servers) await checkSample(s, SCENARIOS.find((x) => x.id === 'verifyKeyLimits')!, bodies.get(`${s.name}/verifyKeyLimits`)!);

  // Latency at a fixed offered load: half of the scenario's own max throughput, and the baseline
  // at that same rate right after (sent the same requests), so the tails are compared under the
  // same machine noise and the same load generator work. Rounds interleave the scenarios: one
  // pair's tails move with the host's noise far more than medians do, so the budget takes the
  // median of the rounds' ratios.
  log(`latency at half of each scenario's max throughput, keygate then the baseline at the same rate: autocannon rate mode, 100 connections${settings.stagger ? ' staggered over the second' : ' (burst shape)'}, ${settings.rateDurationS} s, ${settings.latencyRounds} round(s)`);
  const rateOpts = { rootKey: ROOT_KEY, durationS: settings.rateDurationS, connections: 100, stagger: settings.stagger };
  const latencyRuns: Record<string, { own: RateResult; baseline: RateResult }[]> = {};
  for (let round = 1; round <= settings.latencyRounds; round++) {
    for (const s of servers) for (const sc of SCENARIOS.filter((x) => x.latency)) {
      const key = `${s.name}/${sc.id}`;
      const rate = Math.round(results.throughput[key]!.rps / 2);
      const at = `@${(rate / 1000).toFixed(1)}k${settings.latencyRounds > 1 ? `, round ${round}` : ''}`;
      await rememberKeysFirst(s, sc, bodies.get(key));
      const own = await runAtRate({ ...rateOpts, rate, url: target(s, sc), bodies: bodies.get(key)!, label: `${s.name} ${sc.id} ${at}` });
      const baselineRun = await runAtRate({ ...rateOpts, rate, url: `${baseline.url}/v2/keys.verifyKey`, bodies: bodies.get(key)!, label: `baseline ${at}` });
      (latencyRuns[key] ??= []).push({ own, baseline: baselineRun });
    }
  }
  for (const [key, runs] of Object.entries(latencyRuns)) {
    results.latency[key] = medianRate(runs.map((r) => r.own));
    results.latencyBaseline[key] = medianRate(runs.map((r) => r.baseline));
    (results.p99Ratio ??= {})[key] = median(runs.map((r) => r.own.p99Ms / r.baseline.p99Ms));
  }

  // Redis calls per verification: INFO commandstats over every master, 100 clients at full speed,
  // in the steady state the budget is about (batching): one pass over the keys first fills the
  // record cache, whose entries the latency runs above may have let expire (CACHE_TTL_MS). What
  // that cold pass cost is reported beside, per key.
  for (const s of servers.filter((x) => x.mode !== 'embedded')) {
    const list = bodies.get(`${s.name}/verifyKeyLimits`)!;
    const cold = redisCalls(redisPorts[s.name]!);
    const { failures, first } = await verifyEach(list, (body) => call(s.url, ROOT_KEY, 'keys.verifyKey', body));
    if (failures > 0) log(`  ! ${s.name}: ${failures} of ${list.length} verifications of the cold pass failed; the first: ${first}`);
    const coldPassPerKey = (redisCalls(redisPorts[s.name]!).total - cold.total) / list.length;
    /**
     * verifyKeyLimits at full speed for the calls run's duration (wrk, as the throughput runs: a
     * lighter load generator than autocannon on the CPU Redis shares with it); answers the
     * verifications answered 200.
     */
    const load = async (phase: string): Promise<number> => {
      const run = await runWrk({ url: target(s, SCENARIOS.find((x) => x.id === 'verifyKeyLimits')!), bodiesFile: bodyFiles.get(`${s.name}/verifyKeyLimits`)!,
        rootKey: ROOT_KEY, durationS: settings.callsDurationS, label: `${s.name} ${phase}` });
      return run.requests - run.non2xx - run.errors;
    };
    // Redis's own CPU comes from the max-throughput rounds, without MONITOR (which costs Redis CPU per command).
    const redisCpuUs = results.throughput[`${s.name}/verifyKeyLimits`]?.redisUs ?? Number.NaN;
    const before = redisCalls(redisPorts[s.name]!);
    const monitor = monitorCommands(redisPorts[s.name]!);
    const ok = await load('Redis calls');
    const after = redisCalls(redisPorts[s.name]!);
    const seen = await monitor.stop();
    const byCommand = diffCalls(before.byCommand, after.byCommand);
    const c = {
      verifications: ok, redisCalls: after.total - before.total, perVerification: (after.total - before.total) / Math.max(ok, 1),
      usecPerVerification: redisCpuUs,
      sent: seen.sent, sentPerVerification: seen.sent / Math.max(ok, 1), inScripts: seen.inScripts, byCommand, rps: ok / settings.callsDurationS,
      coldPassPerKey,
    };
    results.calls[s.name] = c;
    log(`  ✓ ${s.name}: ${ok} verifications (${(c.rps / 1000).toFixed(1)}k/s); commandstats ${c.redisCalls} calls = ${c.perVerification.toFixed(3)} (Redis used ${c.usecPerVerification.toFixed(2)} µs of CPU per verification in the max-throughput rounds, without MONITOR), of which sent by keygate ${c.sent} = ${c.sentPerVerification.toFixed(3)} (MONITOR; ${c.inScripts} ran inside scripts) ${JSON.stringify(byCommand)}; the cold pass before: ${coldPassPerKey.toFixed(2)} commandstats calls per key`);
  }

  // The scenario servers are done; the memory run gets the machine to itself.
  for (const s of servers) await s.stop();
  for (const m of metricsPair) await m.stop();
  await reference.stop();
  await cluster.stop();
  await redis.stop(true);

  if (!opt['skip-memory']) {
    results.memory = await runMemory({ keys: settings.memoryKeys, durationS: settings.memoryDurationS, work });
  }
  await baseline.stop();
  if (!opt['skip-hashing']) {
    log('hashing: SHA-256 inline vs piscina (both cores for the pool)');
    results.hashing = await runHashing(quick);
    log(formatHashing(results.hashing));
  }
  results.loadavgAfter = loadavg();
  results.stealShare = stealShare(hostBefore, readHostCpu());
  results.seconds = (Date.now() - started) / 1000;
  const verdicts = evaluate(budgets, results);
  printReport(results, verdicts);
  const outDir = join(BENCH_DIR, 'results');
  mkdirSync(outDir, { recursive: true });
  const json = JSON.stringify({ ...results, verdicts }, null, 2);
  writeFileSync(join(outDir, `${results.date.replace(/[:.]/g, '-')}${quick ? '-quick' : ''}.json`), json);
  writeFileSync(join(outDir, quick ? 'latest-quick.json' : 'latest.json'), json);
  // The quick run is a smoke test: its 2-s runs say whether everything works, not whether a budget is met.
  return !quick && verdicts.some((v) => !v.pass) ? 1 : 0;
}


async function checkSample(s: KeygateServer, sc: Scenario, list: readonly string[]): Promise<void> {
  for (const body of [list[0]!, list[Math.floor(list.length / 2)]!, list[list.length - 1]!]) {
    const data = await call(s.url, ROOT_KEY, sc.procedure, JSON.parse(body));
    if (!sc.expect(data)) throw new Error(`${s.name} ${sc.id}: unexpected answer to ${body}: ${JSON.stringify(data).slice(0, 300)}`);
  }
}

let code = 2;
try {
  code = await main();
} catch (err) {
  process.stderr.write(`\nbench failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
} finally {
  await stopAll();
}
process.exit(code);
