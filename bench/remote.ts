/**
 * The operator mode, `npm run bench -- --url <keygate> --root-key <key>`: load-tests a running
 * deployment with the scenarios that stay inside the bench's own API (max throughput with wrk, then
 * a fixed rate with autocannon), prints the same table as the local run, and removes everything it
 * created, also when the run fails or is interrupted. See bench/README.md, "Load-testing your own
 * deployment".
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { warmPass, type Seeded } from './lib/api.js';
import { displayUrl, KEY_PREFIX, ok, redact, type Deployment } from './lib/deployment.js';
import { log } from './lib/progress.js';
import { runAtRate } from './lib/rate.js';
import { cleanup, missingPermissions, NEEDED_PERMISSIONS, newState, seed, type BenchState, type CleanupReport } from './lib/remote.js';
import { median, THROUGHPUT_HEADER, throughputRow, type Results } from './lib/report.js';
import { ensureWrk, runWrk, type WrkResult } from './lib/wrk.js';
import { SCENARIOS, type Scenario } from './scenarios.js';

export interface OperatorOptions {
  readonly url: string;
  readonly rootKey: string | undefined;
  readonly quick: boolean;
  readonly rounds: number;
  readonly durationS: number;
  readonly rateDurationS: number;
  readonly warmupS: number;
  readonly stagger: boolean;
  readonly keys: number;
  readonly identities: number;
  readonly skipCreateKey: boolean;
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
const RESULTS_DIR = fileURLToPath(new URL('results/', import.meta.url));
const SERVER = 'deployment';

/**
 * ratelimitLimit is left out: it would create a rate-limit namespace, outside the bench's API.
 * createKey creates its keys in the bench's API, with the bench's prefix, so the cleanup finds them.
 */
function operatorScenarios(skipCreateKey: boolean): Scenario[] {
  return SCENARIOS.filter((sc) => sc.id !== 'ratelimitLimit' && !(skipCreateKey && sc.id === 'createKey'))
    .map((sc) => (sc.id === 'createKey' ? { ...sc, bodies: (s: Seeded) => [JSON.stringify({ apiId: s.apiId, prefix: KEY_PREFIX })] } : sc));
}

function problemWithOptions(o: OperatorOptions): string | undefined {
  if (o.rootKey === undefined || o.rootKey === '') return '--url needs a root key: --root-key <key>, or KEYGATE_ROOT_KEY in the environment (kept out of shell history)';
  try {
    if (!['http:', 'https:'].includes(new URL(o.url).protocol)) return `--url must be an http:// or https:// URL (got ${o.url})`;
  } catch {
    return `--url is not a URL: ${o.url}`;
  }
  for (const [name, v] of [['--rounds', o.rounds], ['--keys', o.keys], ['--identities', o.identities]] as const) {
    if (!Number.isInteger(v) || v < 1) return `${name} must be a whole number ≥ 1`;
  }
  for (const [name, v] of [['--duration', o.durationS], ['--rate-duration', o.rateDurationS]] as const) {
    if (!Number.isInteger(v) || v < 1) return `${name} must be whole seconds ≥ 1`;
  }
  return undefined;
}

/** Runs the operator mode; answers the exit code (0 done, 2 broken or not cleaned up, 128+n on a signal). */
export async function runOperatorMode(o: OperatorOptions): Promise<number> {
  const problem = problemWithOptions(o);
  if (problem !== undefined) {
    process.stderr.write(`bench: ${problem}\n`);
    return 2;
  }
  const d: Deployment = { url: o.url.replace(/\/+$/, ''), rootKey: o.rootKey! };
  const state = newState(randomBytes(4).toString('hex'));
  // Holds the wrk bodies files, which carry plaintext keys: private to this user, removed at the end.
  const work = mkdtempSync(join(tmpdir(), 'keygate-bench-remote-'));
  const controller = new AbortController();
  let signalled: number | undefined;
  for (const [signal, exitCode] of Object.entries(EXIT_CODES)) {
    process.on(signal, () => {
      if (signalled === undefined) {
        signalled = exitCode;
        process.stderr.write(`\nbench: ${signal}: stopping the load, then removing what run ${state.runId} created (${signal} again abandons that)…\n`);
        controller.abort(new Error(`interrupted by ${signal}`));
        return;
      }
      process.stderr.write(`\nbench: ${signal} again: cleanup abandoned. Left in ${displayUrl(d.url)}: ${leftovers(state)}\n`);
      rmSync(work, { recursive: true, force: true });
      process.exit(signalled);
    });
  }

  let results: Results | undefined;
  let code = 0;
  try {
    results = await measure(d, state, o, work, controller.signal);
  } catch (err) {
    code = 2;
    if (!controller.signal.aborted) process.stderr.write(`\nbench failed: ${redact(err instanceof Error ? err.message : String(err), d.rootKey)}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const removed = await removeEverything(d, state);
  if (removed.problems.length > 0) code = 2;
  if (results && signalled === undefined) report(d, state, results, removed);
  return signalled ?? code;
}

function leftovers(s: BenchState): string {
  return `API ${s.name}${s.apiId ? ` (${s.apiId}) and its keys` : ' (if it was created) and its keys'}, identities ${s.name}-0 … ${s.name}-${Math.max(s.identitiesAttempted - 1, 0)}`;
}

async function removeEverything(d: Deployment, s: BenchState): Promise<CleanupReport> {
  if (!s.apiCreateAttempted && s.identitiesAttempted === 0) return { keysDeleted: 0, identitiesDeleted: 0, apiDeleted: false, problems: [] };
  log(`cleanup: removing what run ${s.runId} created in ${displayUrl(d.url)}`);
  const r = await cleanup(d, s);
  if (r.problems.length === 0) {
    log(`  ✓ removed ${r.keysDeleted} keys, ${r.identitiesDeleted} identities${r.apiDeleted ? `, API ${s.name}` : ''}`);
  } else {
    process.stderr.write(`bench: cleanup incomplete (removed ${r.keysDeleted} keys, ${r.identitiesDeleted} identities); remove by hand:\n  ${r.problems.map((p) => redact(p, d.rootKey)).join('\n  ')}\n`);
  }
  return r;
}

async function measure(d: Deployment, s: BenchState, o: OperatorOptions, work: string, signal: AbortSignal): Promise<Results> {
  ensureWrk();
  const results: Results = {
    date: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${spawnSync('uname', ['-sr'], { encoding: 'utf8' }).stdout.trim()}`,
    settings: {
      mode: 'operator', url: displayUrl(d.url), quick: o.quick, rounds: o.rounds, durationS: o.durationS, rateDurationS: o.rateDurationS,
      warmupS: o.warmupS, stagger: o.stagger, keys: o.keys, identities: o.identities, skipCreateKey: o.skipCreateKey,
    },
    loadavgBefore: loadavg(), throughput: {}, latency: {}, latencyBaseline: {}, calls: {}, seeding: {},
  };
  log(`keygate bench, operator mode — ${displayUrl(d.url)}, run ${s.runId}; load generator ${results.machine}`);
  log('  no baseline server, no server CPU figures (the deployment is remote); budgets (bench/budgets.json) do not apply and are not checked');

  const missing = await missingPermissions(d, s);
  if (missing.length > 0) {
    throw new Error(`the root key lacks what the bench needs:\n  ${missing.join('\n  ')}\nGrant it: ${NEEDED_PERMISSIONS.join(',')}`);
  }
  log('  ✓ root key accepted (verify_key, delete_api, read_api, read_key, create_key, delete_identity checked; create_api, create_identity, delete_key at first use)');
  const seeded = await seed(d, s, o.keys, o.identities, signal);
  results.seeding[SERVER] = { keys: o.keys * 2, identities: o.identities, seconds: seeded.seconds };

  const scenarios = operatorScenarios(o.skipCreateKey);
  const bodies = new Map<string, string[]>();
  const files = new Map<string, string>();
  for (const sc of scenarios) {
    const list = sc.bodies(seeded);
    const file = join(work, `${sc.id}.txt`);
    writeFileSync(file, `${list.join('\n')}\n`, { mode: 0o600 });
    bodies.set(sc.id, list);
    files.set(sc.id, file);
    await checkSample(d, sc, list);
  }
  const wrk = (sc: Scenario, durationS: number, label: string, quiet = false): Promise<WrkResult> => runWrk({
    url: `${d.url}/v2/${sc.procedure}`, bodiesFile: files.get(sc.id)!, rootKey: d.rootKey, durationS, label, quiet,
    pinToLoadCpu: false, rootKeyInEnv: true, signal,
  });
  /**
   * Before each timed run of a verifyKey scenario, every body of it once (100 in flight): a
   * deployment in a Redis mode rebuilds what it remembers of a key once it is older than its
   * CACHE_TTL_MS (60 s by default), and the scenario's previous run may be older than that, so the
   * run would otherwise measure a cold start. A failed answer is counted, not fatal.
   */
  const rememberKeysFirst = async (sc: Scenario): Promise<void> => {
    if (sc.procedure !== 'keys.verifyKey') return;
    await warmPass(sc.id, bodies.get(sc.id)!, (body) => ok(d, sc.procedure, body), { signal, shown: (text) => redact(text, d.rootKey) });
  };
  if (o.warmupS > 0) {
    log(`warm-up (${o.warmupS} s per scenario, discarded)`);
    for (const sc of scenarios) await wrk(sc, o.warmupS, `warm-up ${sc.id}`, true);
  }

  log(`max throughput: wrk -t1 -c100 -d${o.durationS}s, ${o.rounds} round(s), from this machine`);
  const raw: Record<string, WrkResult[]> = {};
  for (let round = 1; round <= o.rounds; round++) {
    for (const sc of scenarios) {
      await rememberKeysFirst(sc);
      (raw[sc.id] ??= []).push(await wrk(sc, o.durationS, `round ${round} ${sc.id}`));
    }
  }
  for (const [id, runs] of Object.entries(raw)) {
    results.throughput[`${SERVER}/${id}`] = {
      rps: median(runs.map((r) => r.rps)), min: Math.min(...runs.map((r) => r.rps)), max: Math.max(...runs.map((r) => r.rps)),
      p99Ms: median(runs.map((r) => r.p99Ms)), errors: runs.reduce((a, r) => a + r.errors + r.non2xx, 0), rounds: runs.length,
    };
  }
  // The limited keys must still be VALID: their limits never deny.
  const limits = scenarios.find((x) => x.id === 'verifyKeyLimits')!;
  await checkSample(d, limits, bodies.get(limits.id)!);

  log(`latency at half of each scenario's max throughput: autocannon rate mode, 100 connections${o.stagger ? ' staggered over the second' : ' (burst shape)'}, ${o.rateDurationS} s`);
  for (const sc of scenarios.filter((x) => x.latency)) {
    const key = `${SERVER}/${sc.id}`;
    const rate = Math.max(1, Math.round(results.throughput[key]!.rps / 2));
    await rememberKeysFirst(sc);
    results.latency[key] = await runAtRate({
      url: `${d.url}/v2/${sc.procedure}`, bodies: bodies.get(sc.id)!, rootKey: d.rootKey, rate, durationS: o.rateDurationS,
      connections: 100, stagger: o.stagger, label: `${sc.id} @${(rate / 1000).toFixed(1)}k`, signal,
    });
    signal.throwIfAborted();
  }
  results.loadavgAfter = loadavg();
  return results;
}

/** Three sample answers must be what the scenario claims; the answer is never shown (createKey's holds a key). */
async function checkSample(d: Deployment, sc: Scenario, list: readonly string[]): Promise<void> {
  for (const i of [0, Math.floor(list.length / 2), list.length - 1]) {
    const data = await ok<Record<string, unknown>>(d, sc.procedure, JSON.parse(list[i]!));
    if (!sc.expect(data)) throw new Error(`${sc.id}: sample ${i} did not answer as expected (code ${String(data.code)})`);
  }
}

function report(d: Deployment, s: BenchState, r: Results, removed: CleanupReport): void {
  r.seconds = (Date.now() - Date.parse(r.date)) / 1000;
  const out = ['', `## Results of ${displayUrl(d.url)} (${r.date}, run ${s.runId}; load generator ${r.machine})`, ''];
  out.push(`Max throughput: wrk -t1 -c100 from this machine, median of ${r.settings.rounds as number} run(s) of ${r.settings.durationS as number} s (min–max). Latency: autocannon rate mode at half the row's max throughput, 100 connections, ${r.settings.rateDurationS as number} s, ms. No baseline and no server CPU (the deployment is remote), so those columns are –; budgets do not apply. ratelimitLimit is not run (it would create a rate-limit namespace).`, '');
  out.push(...THROUGHPUT_HEADER);
  for (const id of Object.keys(r.throughput)) out.push(throughputRow(r, SERVER, id.slice(SERVER.length + 1), id));
  const seeding = r.seeding[SERVER]!;
  const left = removed.problems.length > 0 ? ' Cleanup incomplete: see above.' : '';
  out.push('', `Seeded ${seeding.keys} keys (half over ${seeding.identities} identities) in ${seeding.seconds.toFixed(1)} s; removed ${removed.keysDeleted} keys, ${removed.identitiesDeleted} identities${removed.apiDeleted ? ` and the API ${s.name}` : ''}.${left}`);
  out.push(`load average of this machine before ${r.loadavgBefore.map((x) => x.toFixed(2)).join(' ')}, after ${r.loadavgAfter?.map((x) => x.toFixed(2)).join(' ') ?? '?'}; run took ${r.seconds.toFixed(0)} s`, '');
  process.stdout.write(`${out.join('\n')}\n`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `remote-${r.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ ...r, runId: s.runId, cleanup: removed }, null, 2));
  log(`results: ${file}`);
}
