/**
 * `npm run bench:profile -- [options]`: where keygate's event loop spends its time in one scenario.
 * Starts keygate (every thread on CPU 0, wrk on CPU 1, as in the bench), seeds keys, verifies each
 * once, warms up, then profiles the event loop with V8's sampling profiler during a wrk run and prints the
 * functions with most time of their own and most time in all they call, as shares of the samples,
 * and the samples by part of a verification (lib/profile-parts.ts).
 * The profile is written to bench/results/ (open it in Chrome DevTools' Performance panel).
 * With --heap: V8's sampling heap profiler instead, and the functions that allocate the most bytes
 * per request (objects collected since included), the young generation's work per request; with
 * --promoted only what outlived the young generation (what its collections copy to the old one).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { call, seedScenarioKeys, warmPass } from './lib/api.js';
import { installSignalHandlers, LOAD_CPU, pin, ROOT_KEY, startCluster, startKeygate, startRedis, stopAll, tempDir, type Mode } from './lib/procs.js';
import { log } from './lib/progress.js';
import { frameName, partsTable, sampleStacks, type Profile, type ProfileNode } from './lib/profile-parts.js';
import { parseSettings } from './lib/settings.js';
import { ensureWrk, runWrk } from './lib/wrk.js';

const HELP = `Usage: npm run bench:profile -- [options]
  --scenario S   one (one key again and again, default), keys (--keys keys in turn),
                 limits (keys of --identities identities with two auto-applied limits)
  --identities N identities the limits scenario's keys are spread over (default 20)
  --mode M       embedded (default), redis (one redis-server) or cluster (a 3-master Redis Cluster)
  --keys N       keys seeded (default 2000)
  --env K=V,K=V  keygate settings (e.g. CACHE_MAX_ENTRIES=100 to profile the path of keys not in the hot set)
  --seconds S    seconds profiled (default 8)
  --top N        rows per table (default 30)
  --heap         bytes allocated per request by function (sampling heap profiler) instead of CPU time
  --promoted     as --heap, but only what outlived the young generation (what its collections promote)
  --read FILE    print the tables of a saved .cpuprofile (e.g. bench/results/profile-embedded-one.cpuprofile) instead of profiling`;

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'one' }, mode: { type: 'string', default: 'embedded' }, keys: { type: 'string', default: '2000' },
    identities: { type: 'string', default: '20' }, env: { type: 'string', default: '' }, seconds: { type: 'string', default: '8' }, top: { type: 'string', default: '30' }, heap: { type: 'boolean' }, promoted: { type: 'boolean' }, read: { type: 'string' }, help: { type: 'boolean' },
  },
});

interface HeapNode { callFrame: ProfileNode['callFrame']; selfSize: number; children: HeapNode[] }

/** Bytes per request by the function that allocated them (name, file, line); `what`: which bytes the profile holds. */
function summarizeHeap(head: HeapNode, requests: number, top: number, what: string): string {
  const self = new Map<string, number>();
  let all = 0;
  const walk = (n: HeapNode): void => {
    all += n.selfSize;
    const name = frameName(n.callFrame);
    self.set(name, (self.get(name) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c);
  };
  walk(head);
  const perRequest = (bytes: number): string => (bytes / Math.max(requests, 1)).toFixed(0);
  const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([n, b]) => `| ${perRequest(b)} | \`${n.trim()}\` |`).join('\n');
  return `${perRequest(all)} bytes ${what} per request (${requests} requests profiled).\n\n| bytes per request | allocated in |\n|---|---|\n${rows}`;
}

/** Self and total shares per function (name, file, line), each function counted once per sample. */
function summarize(profile: Profile, top: number): string {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const stack of sampleStacks(profile)) {
    self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + 1);
    for (const n of new Set(stack)) total.set(n, (total.get(n) ?? 0) + 1);
  }
  // Shares of the busy samples: "(idle)" is the event loop waiting for the network.
  const idle = self.get('(idle) ') ?? 0;
  const busy = Math.max(profile.samples.length - idle, 1);
  const rows = (m: Map<string, number>): string => [...m].filter(([n]) => n !== '(idle) ' && n !== '(root) ')
    .sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([n, c]) => `| ${(100 * c / busy).toFixed(1)} % | \`${n.trim()}\` |`).join('\n');
  return `${busy} busy samples of ${profile.samples.length} (the rest idle); shares of the busy ones.\n\nSelf time:\n\n| share | function |\n|---|---|\n${rows(self)}\n\nTotal time (with what it calls):\n\n| share | function |\n|---|---|\n${rows(total)}`;
}

function logCpuTables(profile: Profile): void {
  log(summarize(profile, Number(values.top)));
  log(`\n${partsTable(profile)}`);
}

async function main(): Promise<void> {
  if (values.help) return log(HELP);
  if (values.read) return logCpuTables(JSON.parse(readFileSync(values.read, 'utf8')) as Profile);
  if (!['one', 'keys', 'limits'].includes(values.scenario!)) throw new Error('--scenario is one, keys or limits');
  ensureWrk();
  installSignalHandlers();
  // This process reads keygate's output: on the load CPU, as in npm run bench.
  pin(process.pid, LOAD_CPU);
  const seconds = Number(values.seconds);
  const work = tempDir('profile');
  const out = join(work, 'keygate.cpuprofile');
  if (!['embedded', 'redis', 'cluster'].includes(values.mode!)) throw new Error(`--mode ${values.mode}: expected embedded, redis or cluster`);
  const redisEnv: Record<string, string> = values.mode === 'redis' ? { REDIS_URL: (await startRedis()).url }
    : values.mode === 'cluster' ? { REDIS_CLUSTER_NODES: (await startCluster()).nodes.join(',') } : {};
  const script = new URL('./profile-main.mjs', import.meta.url).pathname;
  const server = await startKeygate(values.mode as Mode, 'profile',
    { ...parseSettings(values.env!), PROFILE_OUT: out, PROFILE_SECONDS: String(seconds), PROFILE_KIND: values.promoted ? 'promoted' : values.heap ? 'heap' : 'cpu', ...redisEnv }, script);
  const seeded = await seedScenarioKeys(server.url, ROOT_KEY, Number(values.keys), Number(values.identities), () => undefined);
  const chosen = values.scenario === 'one' ? seeded.plainKeys.slice(0, 1) : values.scenario === 'limits' ? seeded.limitedKeys : seeded.plainKeys;
  const bodies = join(work, 'bodies.txt');
  writeFileSync(bodies, `${chosen.map((key) => JSON.stringify({ key })).join('\n')}\n`);
  const run = (durationS: number, label: string) => runWrk({ url: `${server.url}/v2/keys.verifyKey`, bodiesFile: bodies, rootKey: ROOT_KEY, durationS, label, quiet: true });
  // Every key once first, so the profile is of remembered keys (with many keys, building them can
  // take longer than the warm-up), unless the settings make keygate forget them (CACHE_MAX_ENTRIES).
  await warmPass(`${values.mode} ${values.scenario}`, chosen.map((key) => JSON.stringify({ key })), (body) => call(server.url, ROOT_KEY, 'keys.verifyKey', body));
  await run(4, 'warm-up');
  process.kill(server.pid, 'SIGUSR2');
  const result = await run(seconds + 1, 'profiled');
  for (let waited = 0; !existsSync(out) && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  const text = readFileSync(out, 'utf8');
  const resultsDir = new URL('./results/', import.meta.url).pathname;
  mkdirSync(resultsDir, { recursive: true });
  const heap = values.heap || values.promoted;
  const saved = join(resultsDir, `profile-${values.mode}-${values.scenario}${values.promoted ? '-promoted' : ''}.${heap ? 'heapprofile' : 'cpuprofile'}`);
  writeFileSync(saved, text);
  log(`\n${values.mode}, scenario ${values.scenario}: ${(result.rps / 1000).toFixed(1)}k req/s while profiled (the profiler slows it); profile in ${saved}\n`);
  // The wrk run outlasts the profile by a second: requests are counted at the run's rate.
  const what = values.promoted ? 'allocated and kept past the young generation' : 'allocated';
  if (heap) log(summarizeHeap((JSON.parse(text) as { head: HeapNode }).head, Math.round(result.rps * seconds), Number(values.top), what));
  else logCpuTables(JSON.parse(text) as Profile);
}

main().then(() => stopAll(), async (err: unknown) => {
  process.stderr.write(`bench:profile failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAll();
  process.exit(2);
});
