/**
 * `npm run bench:ab -- [options]`: a short A/B run for one change, in the full run's shape — the
 * uWS baseline and two or more keygate variants started together (every thread of each on CPU 0),
 * wrk on CPU 1, baseline and variants interleaved round by round, medians — with the CPU µs per
 * request of each server's event loop and of its other threads. A variant is another build
 * (--main: a copy of dist/ directly in the project folder, where it finds node_modules and
 * package.json) or other settings (--env).
 * See bench/README.md, "Hot-path measurements between full runs".
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAIN_JS } from '../test/support/process.js';
import { call, seedScenarioKeys, warmPass } from './lib/api.js';
import { readCpu, readThreadsByName, usPerRequest } from './lib/cpu.js';
import { diffCalls, redisCalls } from './lib/redis-calls.js';
import { installSignalHandlers, LOAD_CPU, pin, ROOT_KEY, startBaseline, startCluster, startKeygate, startRedis, startReference, stopAll, tasksetPrefix, tempDir } from './lib/procs.js';
import { log } from './lib/progress.js';
import { runAtRate, type RateResult } from './lib/rate.js';
import { LONG_WAIT_MS, perfSchedUsable, recordSched, schedWaits, type SchedWaits, type WaitsBehind } from './lib/sched.js';
import { median } from './lib/report.js';
import { describeSteal, readHostCpu, stealShare } from './lib/steal.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const HELP = `Usage: npm run bench:ab -- [options]
  --main PATH      a build's main.js (repeatable; default dist/main.js)
  --env K=V,K=V    settings of one variant (repeatable: one variant each, on the first --main)
  --env-all K=V,…  settings of every variant (e.g. REDIS_COMMAND_TIMEOUT_MS=2000 on a busy machine)
  --scenario S     one (one key again and again, default), keys (--keys keys in turn),
                   limits (--keys keys of --identities identities with two auto-applied limits)
  --mode M         embedded (default), redis (one redis-server) or cluster (a 3-master Redis
                   Cluster); each variant its own key prefix, and each timed run after one untimed
                   pass over the variant's keys (keygate forgets a key after CACHE_TTL_MS there)
  --keys N         keys seeded per variant (default 2000)
  --identities N   identities the limits scenario's keys are spread over (default 20)
  --rounds N       interleaved rounds, medians quoted (default 3)
  --duration S     seconds per wrk run (default 5)
  --threads        also a table of CPU µs per request of each thread (which thread costs what)
  --latency        then p50/p99/p99.9 of each variant at one fixed rate, and the baseline's at that
                   rate right after, interleaved rounds (autocannon rate mode, 100 connections
                   staggered over the second, as npm run bench)
  --rate N         that rate in req/s (default: half the first variant's median max throughput)
  --latency-duration S   seconds per latency run (default 10)
  --sched          with --latency: perf sched over each latency run but its first 2 s and last 1 s,
                   and a table of the event loops' waits of 0.3 ms or more between being ready to
                   run and running, by what had the CPU before (its own threads, other tasks, idle)
  --commandstats   (redis, cluster) also the commands Redis ran per verification, by command, and their µs (INFO commandstats, scripts' own included)
  --reference      also the minimal verification server (bench/minimal-verify-server.ts: root key, JSON,
                   SHA-256, a Map, a JSON answer; no logs, metrics, analytics or limits) on the first
                   variant's keys, in the same rounds: how near keygate is to what the engine allows
Every variant runs at LOG_LEVEL=info, METRICS=on and npm start's node flags (NODE_OPTIONS) unless its --env says otherwise.
NODE_FLAGS in --env adds node flags on the command line, for those NODE_OPTIONS refuses (--env NODE_FLAGS=--single-threaded-gc).`;

const { values } = parseArgs({
  options: {
    main: { type: 'string', multiple: true }, env: { type: 'string', multiple: true },
    scenario: { type: 'string', default: 'one' }, mode: { type: 'string', default: 'embedded' },
    keys: { type: 'string', default: '2000' }, identities: { type: 'string', default: '20' }, rounds: { type: 'string', default: '3' }, duration: { type: 'string', default: '5' },
    'env-all': { type: 'string' }, threads: { type: 'boolean' }, commandstats: { type: 'boolean' }, help: { type: 'boolean' },
    latency: { type: 'boolean' }, sched: { type: 'boolean' }, rate: { type: 'string' }, reference: { type: 'boolean' }, 'latency-duration': { type: 'string', default: '10' },
  },
});
if (values.help) {
  log(HELP);
  process.exit(0);
}

interface Variant { readonly label: string; readonly script: string; readonly env: Record<string, string> }

function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`--env takes K=V pairs separated by commas (got '${pair}')`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

/** CPU seconds of the given redis-servers, every thread. */
function redisCpu(pids: readonly number[]): number {
  return pids.reduce((sum, pid) => { const c = readCpu(pid); return sum + c.eventLoopS + c.otherThreadsS; }, 0);
}

function variants(): Variant[] {
  const mains = values.main ?? [MAIN_JS];
  const common = parseEnv(values['env-all'] ?? '');
  if (values.env) return values.env.map((e) => ({ label: `${mains[0] === MAIN_JS ? 'dist' : mains[0]} ${e}`, script: mains[0]!, env: { ...common, ...parseEnv(e) } }));
  return mains.map((m) => ({ label: m === MAIN_JS ? 'dist' : m, script: m, env: common }));
}

async function main(): Promise<void> {
  ensureWrk();
  if (values.sched && !(values.latency && Number(values['latency-duration']) >= 4 && perfSchedUsable())) {
    throw new Error('--sched needs --latency, --latency-duration of 4 s or more, and perf allowed to record scheduler events (Debian: apt-get install linux-perf)');
  }
  installSignalHandlers();
  // This process reads keygate's output and (--latency) runs autocannon: on the load CPU, as in npm run bench.
  pin(process.pid, LOAD_CPU);
  const keys = Number(values.keys);
  const rounds = Number(values.rounds);
  const durationS = Number(values.duration);
  if (!['one', 'keys', 'limits'].includes(values.scenario!)) throw new Error('--scenario is one, keys or limits');
  if (!['embedded', 'redis', 'cluster'].includes(values.mode!)) throw new Error('--mode is embedded, redis or cluster');
  const work = tempDir('ab-bodies');
  const baseline = await startBaseline();
  const standalone = values.mode === 'redis' ? await startRedis() : undefined;
  const cluster = values.mode === 'cluster' ? await startCluster() : undefined;
  /** The redis-servers every variant shares: their CPU and commands are summed. */
  const redis = standalone ? { pids: [standalone.pid], ports: [standalone.port] }
    : cluster ? { pids: cluster.masters.map((m) => m.pid), ports: cluster.masters.map((m) => m.port) } : undefined;
  const redisConnection: Record<string, string> = standalone ? { REDIS_URL: standalone.url }
    : cluster ? { REDIS_CLUSTER_NODES: cluster.nodes.join(',') } : {};
  interface Run {
    server: { name: string; url: string; pid: number };
    bodiesFile: string;
    /** A keygate's bodies (the reference has none: it knows every key from the start). */
    bodies?: readonly string[];
    /** Its bodies, each verified once before every timed run where a keygate forgets keys (rememberKeysFirst). */
    remembered?: readonly string[];
    commands: Map<string, number[]>;
    threadUs: Map<string, number[]>;
    rps: number[];
    eventLoopUs: number[];
    otherUs: number[];
    redisUs: number[];
  }
  const runs: Run[] = [];
  for (const [i, v] of variants().entries()) {
    // One redis-server for all variants, each under a key prefix of its own.
    const redisEnv: Record<string, string> = redis ? { ...redisConnection, REDIS_KEY_PREFIX: `ab${i}:` } : {};
    const server = { ...await startKeygate(cluster ? 'cluster' : redis ? 'redis' : 'embedded', `ab${i}`, { ...redisEnv, ...v.env }, v.script), name: v.label };
    const seeded = await seedScenarioKeys(server.url, ROOT_KEY, keys, Number(values.identities), () => undefined);
    const chosen = values.scenario === 'one' ? seeded.plainKeys.slice(0, 1) : values.scenario === 'limits' ? seeded.limitedKeys : seeded.plainKeys;
    const bodiesFile = join(work, `bodies-${i}.txt`);
    writeFileSync(bodiesFile, `${chosen.map((key) => JSON.stringify({ key })).join('\n')}\n`);
    const bodies = chosen.map((key) => JSON.stringify({ key }));
    runs.push({ server, bodiesFile, bodies, remembered: redis ? bodies : undefined, commands: new Map(), threadUs: new Map(), rps: [], eventLoopUs: [], otherUs: [], redisUs: [] });
    log(`started ${v.label}: ${keys} keys seeded`);
  }
  if (values.reference) {
    const first = runs[0]!;
    const reference = await startReference(first.bodiesFile);
    const sample = await call(reference.url, ROOT_KEY, 'keys.verifyKey', JSON.parse(readFileSync(first.bodiesFile, 'utf8').split('\n')[0]!));
    if (sample.valid !== true) throw new Error(`the reference does not know the keys: ${JSON.stringify(sample)}`);
    runs.push({ server: { ...reference, name: 'minimal verify (reference)' }, bodiesFile: first.bodiesFile, commands: new Map(), threadUs: new Map(), rps: [], eventLoopUs: [], otherUs: [], redisUs: [] });
    log(`started the reference on ${runs[0]!.server.name}'s keys`);
  }
  const wrk = (url: string, bodiesFile: string, seconds: number, label: string) =>
    runWrk({ url: `${url}/v2/keys.verifyKey`, bodiesFile, rootKey: ROOT_KEY, durationS: seconds, label, quiet: true });
  for (const r of runs) {
    // An embedded keygate remembers a key for good from its first verification: one pass over its
    // keys first, so that no round builds its hot set (many keys can take longer than the warm-up).
    // The Redis modes get such a pass before every timed run (rememberKeysFirst).
    if (!redis && r.bodies !== undefined) await warmPass(r.server.name, r.bodies, (body) => call(r.server.url, ROOT_KEY, 'keys.verifyKey', body));
    await wrk(r.server.url, r.bodiesFile, 2, 'warm-up');
  }
  const baselineRps: number[] = [];
  const hostBefore = readHostCpu();
  for (let round = 0; round < rounds; round++) {
    baselineRps.push((await wrk(baseline.url, runs[0]!.bodiesFile, durationS, 'baseline')).rps);
    // Alternating order, so no variant always runs right after the baseline.
    for (const r of round % 2 === 0 ? runs : [...runs].reverse()) {
      await rememberKeysFirst(r);
      const before = readCpu(r.server.pid);
      const threadsBefore = values.threads ? readThreadsByName(r.server.pid) : undefined;
      const redisBefore = redis ? redisCpu(redis.pids) : undefined;
      const callsBefore = redis && values.commandstats ? redisCalls(redis.ports) : undefined;
      const result = await wrk(r.server.url, r.bodiesFile, durationS, r.server.name);
      if (result.errors + result.non2xx > 0) throw new Error(`${r.server.name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
      const cpu = usPerRequest(before, readCpu(r.server.pid), result.requests);
      r.rps.push(result.rps);
      r.eventLoopUs.push(cpu.eventLoopUs);
      r.otherUs.push(cpu.otherThreadsUs);
      if (threadsBefore) {
        for (const [name, seconds] of readThreadsByName(r.server.pid)) {
          const list = r.threadUs.get(name) ?? [];
          list.push(((seconds - (threadsBefore.get(name) ?? 0)) * 1e6) / Math.max(result.requests, 1));
          r.threadUs.set(name, list);
        }
      }
      if (redis && redisBefore !== undefined) {
        // Variants take turns, so the shared redis-servers' CPU during a run is that variant's.
        r.redisUs.push(((redisCpu(redis.pids) - redisBefore) * 1e6) / Math.max(result.requests, 1));
      }
      if (redis && callsBefore) {
        const after = redisCalls(redis.ports);
        const perVerification = (n: number): number => n / Math.max(result.requests, 1);
        // A command absent from a round (the analytics rollups' once a minute, say) ran 0 times there.
        const add = (name: string, value: number): void => {
          const list = r.commands.get(name) ?? new Array<number>(round).fill(0);
          list[round] = value;
          r.commands.set(name, list);
        };
        add('(all)', perVerification(after.total - callsBefore.total));
        add('(usec)', perVerification(after.usec - callsBefore.usec));
        for (const [command, n] of Object.entries(diffCalls(callsBefore.byCommand, after.byCommand))) add(command, perVerification(n));
        // A script's µs include those of the commands it ran, which are listed on their own too.
        for (const [command, n] of Object.entries(diffCalls(callsBefore.usecByCommand, after.usecByCommand))) add(`${command} (µs)`, perVerification(n));
      }
    }
    log(`round ${round + 1}/${rounds} done`);
  }
  const latency = values.latency ? await latencyRounds(runs, baseline, rounds, Number(values.rate ?? median(runs[0]!.rps) / 2)) : undefined;
  const steal = describeSteal(stealShare(hostBefore, readHostCpu()));
  const k = (rps: number): string => `${(rps / 1000).toFixed(1)}k`;
  log(`\n${values.mode}, scenario ${values.scenario}${values.scenario === 'limits' ? ` (${values.identities} identities)` : ''}, ${rounds} rounds of ${durationS} s; baseline ${k(median(baselineRps))} req/s (${baselineRps.map(k).join(' ')})\n`);
  // Against the first variant round by round: on a machine whose speed drifts during a run, the
  // ratio of two runs minutes apart says less than that of two runs seconds apart.
  const first = runs[0]!;
  const paired = (r: typeof first): string => r === first ? '1' : median(r.rps.map((rps, i) => rps / first.rps[i]!)).toFixed(3);
  const redisColumn = redis ? ' redis-server µs/req |' : '';
  log(`| variant | req/s (each round) | × baseline | × first variant (median of rounds) | event loop µs/req | other threads µs/req |${redisColumn}`);
  log(`|---|---|---|---|---|---|${redis ? '---|' : ''}`);
  for (const r of runs) {
    const redisCell = redis ? ` ${median(r.redisUs).toFixed(1)} |` : '';
    log(`| ${r.server.name} | ${k(median(r.rps))} (${r.rps.map(k).join(' ')}) | ${(median(r.rps) / median(baselineRps)).toFixed(3)} | ${paired(r)} | ${median(r.eventLoopUs).toFixed(1)} | ${median(r.otherUs).toFixed(1)} |${redisCell}`);
  }
  if (values.commandstats && redis) {
    log('\nCommands Redis ran per verification (INFO commandstats, scripts\' own included; (usec): their µs; median of rounds):\n');
    log('| variant | command | per verification |');
    log('|---|---|---|');
    for (const r of runs) {
      const ofEveryRound = (values: readonly number[]): number[] => Array.from({ length: rounds }, (_, i) => values[i] ?? 0);
      for (const [command, values] of [...r.commands].map(([c, v]) => [c, ofEveryRound(v)] as const).sort((a, b) => median(b[1]) - median(a[1]))) {
        log(`| ${r.server.name} | ${command} | ${median(values).toFixed(3)} |`);
      }
    }
  }
  if (latency) {
    const ms = (xs: readonly number[]): string => median(xs).toFixed(3);
    log(`\nLatency at ${k(latency.rate)} req/s, ${rounds} rounds of ${latency.durationS} s (medians, ms; the baseline at the same rate right after each variant's run):\n`);
    log('| variant | p50 | p99 | p99.9 | baseline p99 | p99 × baseline (median of rounds) | errors |');
    log('|---|---|---|---|---|---|---|');
    for (const [i, r] of runs.entries()) {
      const own = latency.results[i]!;
      const base = latency.baselines[i]!;
      log(`| ${r.server.name} | ${ms(own.map((x) => x.p50Ms))} | ${ms(own.map((x) => x.p99Ms))} | ${ms(own.map((x) => x.p999Ms))} | ${ms(base.map((x) => x.p99Ms))} | ${median(own.map((x, j) => x.p99Ms / base[j]!.p99Ms)).toFixed(2)} | ${own.reduce((n, x) => n + x.errors + x.non2xx, 0)} |`);
    }
  }
  if (latency?.waits) {
    const { waits } = latency;
    const behind = (list: readonly SchedWaits[], pick: (w: SchedWaits) => WaitsBehind): string =>
      `${median(list.map((w) => pick(w).count)).toFixed(1)} / ${median(list.map((w) => pick(w).ms)).toFixed(1)}`;
    log(`\nThe event loop's waits of ${LONG_WAIT_MS} ms or more between being ready to run (woken, or preempted) and running (perf sched over ${latency.durationS - 3} s of each latency run; per second: count / ms, medians of rounds), by what had its CPU just before:\n`);
    log('| server | times it got a CPU | behind its own threads | behind other tasks | after idle |');
    log('|---|---|---|---|---|');
    const row = (name: string, list: readonly SchedWaits[]): void =>
      log(`| ${name} | ${median(list.map((w) => w.wakeups)).toFixed(0)} | ${behind(list, (w) => w.own)} | ${behind(list, (w) => w.other)} | ${behind(list, (w) => w.idle)} |`);
    for (const [i, r] of runs.entries()) {
      row(r.server.name, waits.results[i]!);
      row(`baseline after ${r.server.name}`, waits.baselines[i]!);
    }
  }
  if (steal !== '') log(`\nWhile the rounds ran, ${steal}.`);
  if (values.threads) {
    log('\nCPU µs per request of each thread (median of rounds; threads below 0.05 µs left out):\n');
    log('| variant | thread | µs/req |');
    log('|---|---|---|');
    for (const r of runs) {
      const rows = [...r.threadUs].map(([name, us]) => [name, median(us)] as const).filter(([, us]) => us >= 0.05).sort((a, b) => b[1] - a[1]);
      for (const [name, us] of rows) log(`| ${r.server.name} | ${name} | ${us.toFixed(2)} |`);
    }
  }
}

/** Each variant at `rate`, then the baseline at the same rate, round by round (order alternating). */
async function latencyRounds(runs: readonly { server: { url: string; name: string; pid: number }; bodiesFile: string; remembered?: readonly string[] }[],
  baseline: { url: string; pid: number }, rounds: number, rate: number) {
  const durationS = Number(values['latency-duration']);
  const results = runs.map(() => [] as RateResult[]);
  const baselines = runs.map(() => [] as RateResult[]);
  const opts = { rootKey: ROOT_KEY, rate: Math.round(rate), durationS, connections: 100, stagger: true };
  const waits = values.sched ? { results: runs.map(() => [] as SchedWaits[]), baselines: runs.map(() => [] as SchedWaits[]) } : undefined;
  const schedFile = values.sched ? join(tempDir('ab-sched'), 'perf.data') : '';
  /** A run at the rate, with (--sched) perf sched from 2 s in (the connections start over the first second) until 1 s before its end. */
  const rateRun = async (url: string, pid: number, label: string, bodies: readonly string[], into: SchedWaits[] | undefined): Promise<RateResult> => {
    const running = runAtRate({ ...opts, url: `${url}/v2/keys.verifyKey`, bodies, label });
    if (into === undefined) return running;
    const seconds = durationS - 3;
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await recordSched(schedFile, seconds, tasksetPrefix(LOAD_CPU));
    const result = await running;
    into.push(schedWaits(schedFile, pid, seconds));
    return result;
  };
  for (let round = 0; round < rounds; round++) {
    const order = [...runs.keys()];
    for (const i of round % 2 === 0 ? order : order.reverse()) {
      const r = runs[i]!;
      const bodies = readFileSync(r.bodiesFile, 'utf8').trim().split('\n');
      await rememberKeysFirst(r);
      results[i]!.push(await rateRun(r.server.url, r.server.pid, `${r.server.name} @${opts.rate}`, bodies, waits?.results[i]));
      baselines[i]!.push(await rateRun(baseline.url, baseline.pid, `baseline @${opts.rate}`, bodies, waits?.baselines[i]));
    }
    log(`latency round ${round + 1}/${rounds} done`);
  }
  return { rate: opts.rate, durationS, results, baselines, waits };
}

/**
 * In the Redis modes keygate rebuilds what it remembers of a key once it is older than
 * CACHE_TTL_MS (60 s), and a variant's previous run may be older than that, or (the first round)
 * its keys were never verified: one untimed pass over its keys first, as npm run bench does, so a
 * run does not measure loading them from Redis.
 */
async function rememberKeysFirst(r: { server: { url: string; name: string }; remembered?: readonly string[] }): Promise<void> {
  if (r.remembered === undefined) return;
  await warmPass(r.server.name, r.remembered, (body) => call(r.server.url, ROOT_KEY, 'keys.verifyKey', body));
}

main().then(() => stopAll(), async (err: unknown) => {
  process.stderr.write(`bench:ab failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAll();
  process.exit(2);
});
