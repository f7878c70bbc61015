/**
 * Does verifying keys migrated with a slow hash (bcrypt, in the piscina pool) slow down ordinary
 * verifications? Embedded keygate's event loop on the server CPU, its hash worker on the other
 * (as a deployment gives HASH_WORKERS cores of their own); ordinary verifyKey at a fixed rate (10 s),
 * first alone, then while 8 clients keep verifying a bcrypt-migrated key with a wrong secret (each
 * attempt is a bcrypt check in the pool: the worst case, a key is rehashed after its first success).
 * Prints both latency sets; exits 1 if the p99 with slow-hash traffic exceeds max(2 × alone, alone
 * + 2 ms). Usage: npm run bench:slow-hash -- [--rate N] [--seconds S] (--help).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import bcrypt from 'bcryptjs';
import { CLI_JS, PROJECT_DIR } from '../test/support/process.js';
import { call, parallel } from './lib/api.js';
import { installSignalHandlers, LOAD_CPU, ROOT_KEY, startKeygate, stopAll, threadsOf } from './lib/procs.js';
import { runAtRate, type RateResult } from './lib/rate.js';

const HELP = `Usage: npm run bench:slow-hash -- [options]
  --rate N      ordinary verifications a second (default 2000)
  --seconds S   seconds of each of the two fixed-rate runs (default 10)
Exits 1 when the p99 with slow-hash traffic exceeds max(2 × alone, alone + 2 ms).`;
const { values } = parseArgs({ options: { rate: { type: 'string', default: '2000' }, seconds: { type: 'string', default: '10' }, help: { type: 'boolean' } } });
if (values.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
installSignalHandlers();

try {
  const server = await startKeygate('embedded', 'slow-hash', { HASH_WORKERS: '1' });
  const { apiId } = await call<{ apiId: string }>(server.url, ROOT_KEY, 'apis.createApi', { name: 'slow-hash-bench' });
  const ordinary: string[] = [];
  await parallel(1_000, 32, async () => {
    ordinary.push((await call<{ key: string }>(server.url, ROOT_KEY, 'keys.createKey', { apiId })).key);
  });
  const created = spawnSync(process.execPath, [CLI_JS, 'migration', 'create', '--algorithm', 'bcrypt'], {
    env: { PATH: process.env.PATH ?? '', ...server.env, LOG_LEVEL: 'warn' }, encoding: 'utf8', cwd: PROJECT_DIR,
  });
  const migrationId = (JSON.parse(created.stdout) as { id: string }).id;
  const lookup = randomBytes(6).toString('hex');
  const secret = randomBytes(16).toString('hex');
  await call(server.url, ROOT_KEY, 'keys.migrateKeys', { migrationId, apiId, keys: [{ hash: `${lookup}:${bcrypt.hashSync(secret, 10)}` }] });
  const wrongKey = `legacy_${lookup}_${randomBytes(16).toString('hex')}`;

  const bodies = ordinary.map((key) => JSON.stringify({ key }));
  const measure = (label: string): Promise<RateResult> => runAtRate({
    url: `${server.url}/v2/keys.verifyKey`, bodies, rootKey: ROOT_KEY, rate: RATE, durationS: SECONDS, connections: 50, stagger: true, label,
  });
  const alone = await measure('ordinary verifyKey, alone');

  const before = threadsOf(server.pid);
  let slowChecks = 0;
  let stop = false;
  const slowLoad = Promise.all(Array.from({ length: 8 }, async () => {
    while (!stop) {
      const res = await fetch(`${server.url}/v2/keys.verifyKey`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ROOT_KEY}` },
        body: JSON.stringify({ key: wrongKey, migrationId }),
      });
      await res.text();
      slowChecks++;
    }
  }));
  // The pool starts with the first slow check; its worker thread inherited the event loop's CPU.
  // It goes to the other CPU, as on a machine that gives the worker a core: sharing one core with
  // the event loop would time-slice every 80 ms check into the latencies this bench is about.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const workerThreads = threadsOf(server.pid).filter((tid) => !before.includes(tid));
  for (const tid of workerThreads) spawnSync('taskset', ['-p', '-c', String(LOAD_CPU), String(tid)], { stdio: 'ignore' });
  process.stdout.write(`  hash worker thread(s) ${workerThreads.join(', ') || 'not found'} moved to CPU ${LOAD_CPU}\n`);
  const withSlow = await measure('ordinary verifyKey, with bcrypt checks in the pool');
  stop = true;
  await slowLoad;

  const row = (name: string, r: RateResult) => `| ${name} | ${r.achieved.toFixed(0)} | ${r.p50Ms.toFixed(3)} | ${r.p99Ms.toFixed(3)} | ${r.p999Ms.toFixed(3)} | ${r.errors + r.non2xx} |`;
  process.stdout.write(`\n| ordinary verifyKey at ${RATE} req/s | achieved | p50 ms | p99 ms | p99.9 ms | errors |\n|---|---|---|---|---|---|\n`);
  process.stdout.write(`${row('alone', alone)}\n${row(`with ${(slowChecks / SECONDS).toFixed(0)} bcrypt checks/s in the pool`, withSlow)}\n`);
  const bound = Math.max(2 * alone.p99Ms, alone.p99Ms + 2);
  const pass = withSlow.p99Ms <= bound;
  process.stdout.write(`p99 with slow-hash traffic ${withSlow.p99Ms.toFixed(3)} ms, bound ${bound.toFixed(3)} ms: ${pass ? 'pass' : 'FAIL'}\n`);
  await stopAll();
  process.exit(pass ? 0 : 1);
} catch (err) {
  process.stderr.write(`slow-hash bench failed: ${String(err)}\n`);
  await stopAll();
  process.exit(1);
}
