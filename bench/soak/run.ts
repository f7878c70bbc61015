/**
 * Soak: mixed traffic with faults against the distributed mode (2 keygate replicas on a 3-master
 * Redis Cluster, all on 127.0.0.1, stopped by pid at the end). Runs `--seconds N` (default 30):
 * createKey writers, verifyKey readers on one identity's keys with a limit per 2 s window,
 * ratelimit.limit callers, and verifyKey counters on keys of their own through replica 0 only;
 * at 1/3 one master is killed for 3 s, at 2/3 replica 1 is SIGKILLed and started again, at 5/6
 * replica 0 is restarted as an upgrade does (SIGTERM: it drains, then starts again). Reports lost
 * writes (acknowledged keys that do not verify afterwards), over-admissions (windows admitting
 * more than the limit) and analytics mismatches (counted keys whose analytics count differs from
 * the verifications answered 200: replica 0 is never killed, so none may be lost), all of which
 * must be 0, and error rates. Exits 1 when a must-be-0 count is not.
 * Usage: npm run soak [-- --seconds N]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { callKeygate } from '../../test/support/harness.js';
import { spawnKeygate, type ChildKeygate } from '../../test/support/process.js';
import { dropOutput } from '../lib/procs.js';
import { startRedisCluster } from '../../test/support/redis-servers.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '30' } } });
const SECONDS = Math.max(10, Number(values.seconds));
const LIMIT = 40;
const WINDOW_MS = 2_000;

const rootKey = `soak-${randomBytes(12).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'keygate-soak-'));
// Persistent, as docs/distributed.md asks of production: a master that restarts keeps what it acknowledged.
const cluster = await startRedisCluster(3, { persistent: true });
const env = { REDIS_CLUSTER_NODES: cluster.nodes.join(','), ROOT_KEY: rootKey, DATA_DIR: dataDir, REDIS_COMMAND_TIMEOUT_MS: '200', LOG_LEVEL: 'warn' };
const replicas: ChildKeygate[] = [];
const stopAll = async (): Promise<void> => {
  await Promise.all(replicas.map((r) => r.kill('SIGKILL')));
  await cluster.stop();
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  for (let i = 0; i < 2; i++) replicas.push(dropOutput(await spawnKeygate({ ...env, LOG_LEVEL: 'info' })));
  const call = (i: number, procedure: string, body: unknown) => callKeygate(replicas[i % replicas.length]!.url, `/v2/${procedure}`, body, { rootKey });
  const apiId = (await call(0, 'apis.createApi', { name: 'soak' })).body.data.apiId as string;
  await call(0, 'identities.createIdentity', { externalId: 'soak_user', ratelimits: [{ name: 'per_window', limit: LIMIT, duration: WINDOW_MS, autoApply: true }] });
  const limitedKeys: string[] = [];
  for (let i = 0; i < 5; i++) limitedKeys.push((await call(i, 'keys.createKey', { apiId, externalId: 'soak_user' })).body.data.key);
  const countedKeys: { key: string; keyId: string }[] = [];
  for (let i = 0; i < 4; i++) countedKeys.push((await call(i, 'keys.createKey', { apiId })).body.data);
  /** Verifications of each counted key answered 200 (each one is a record analytics must count). */
  const answeredOf = new Map<string, number>(countedKeys.map(({ keyId }) => [keyId, 0]));

  const counts = { requests: 0, errors: 0, unavailable: 0, acknowledged: 0 };
  /** Answers by HTTP status; `none` = the connection failed (a replica was being killed). */
  const byStatus: Record<string, number> = {};
  const acknowledged: string[] = [];
  const admittedByWindow = new Map<number, number>();
  const deadline = Date.now() + SECONDS * 1_000;
  const count = (status: number | 'none'): void => {
    byStatus[status] = (byStatus[status] ?? 0) + 1;
    if (status === 'none') return;
    counts.requests++;
    if (status === 503) counts.unavailable++;
    else if (status !== 200) counts.errors++;
  };
  const loop = async (work: (n: number) => Promise<void>): Promise<void> => {
    for (let n = 0; Date.now() < deadline; n++) {
      try { await work(n); } catch { counts.requests++; counts.errors++; count('none'); await new Promise((r) => setTimeout(r, 20)); }
    }
  };
  const writer = (n: number) => call(n, 'keys.createKey', { apiId, credits: { remaining: 3 } }).then((res) => {
    count(res.status);
    if (res.status === 200) { acknowledged.push(res.body.data.key); counts.acknowledged++; }
  });
  const verifier = (n: number) => call(n, 'keys.verifyKey', { key: limitedKeys[n % limitedKeys.length] }).then((res) => {
    count(res.status);
    if (res.status === 200 && res.body.data.code === 'VALID') {
      const reset = res.body.data.ratelimits[0].reset as number;
      admittedByWindow.set(reset, (admittedByWindow.get(reset) ?? 0) + 1);
    }
  });
  // Always through replica 0: its records are flushed when it drains, so every answered one counts.
  const counter = (n: number) => {
    const { key, keyId } = countedKeys[n % countedKeys.length]!;
    return call(0, 'keys.verifyKey', { key }).then((res) => {
      count(res.status);
      if (res.status === 200) answeredOf.set(keyId, answeredOf.get(keyId)! + 1);
    });
  };
  const limiter = (n: number) => call(n, 'ratelimit.limit', { namespace: 'soak', identifier: `ip_${n % 50}`, limit: 100, duration: 10_000 }).then((res) => count(res.status));

  const faults = (async () => {
    await new Promise((r) => setTimeout(r, (SECONDS * 1_000) / 3));
    process.stdout.write('fault: kill -9 a Redis master for 3 s\n');
    await cluster.masters[2]!.stop(true);
    await new Promise((r) => setTimeout(r, 3_000));
    await cluster.restart(2);
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) / 2));
    process.stdout.write('fault: kill -9 a keygate replica, start it again\n');
    await replicas[1]!.kill('SIGKILL');
    replicas[1] = dropOutput(await spawnKeygate({ ...env, LOG_LEVEL: 'info' }));
    await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()) / 2));
    process.stdout.write('fault: restart the other replica as an upgrade does (SIGTERM, drain, start)\n');
    await replicas[0]!.kill('SIGTERM');
    replicas[0] = dropOutput(await spawnKeygate({ ...env, LOG_LEVEL: 'info' }));
  })();
  const progress = setInterval(() => process.stdout.write(`  ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left, ${counts.requests} requests\n`), 5_000);
  await Promise.all([
    ...Array.from({ length: 4 }, () => loop(writer)),
    ...Array.from({ length: 8 }, () => loop(verifier)),
    ...Array.from({ length: 4 }, () => loop(limiter)),
    ...Array.from({ length: 2 }, () => loop(counter)),
    faults,
  ]);
  clearInterval(progress);

  // Everything acknowledged must verify now that every part is back.
  let lost = 0;
  for (let i = 0; i < acknowledged.length; i += 100) {
    const batch = await Promise.all(acknowledged.slice(i, i + 100).map((key, j) => call(j, 'keys.verifyKey', { key })));
    lost += batch.filter((res) => res.body.data?.code !== 'VALID').length;
  }
  const overAdmissions = [...admittedByWindow.values()].filter((admitted) => admitted > LIMIT).length;
  // The query flushes replica 0's recorder first; the other replica's records were written before.
  const analytics = await Promise.all(countedKeys.map(async ({ keyId }) => {
    const res = await call(0, 'analytics.getVerifications', { query: `SELECT count(*) AS n FROM key_verifications_v1 WHERE key_id = '${keyId}'` });
    return { keyId, answered: answeredOf.get(keyId)!, counted: res.status === 200 ? Number(res.body.data[0]?.n ?? 0) : -1 };
  }));
  const analyticsMismatches = analytics.filter((a) => a.answered !== a.counted);
  const report = {
    seconds: SECONDS, requests: counts.requests, acknowledgedWrites: counts.acknowledged, lostWrites: lost,
    windows: admittedByWindow.size, overAdmissions,
    countedVerifications: analytics.reduce((n, a) => n + a.answered, 0), analyticsMismatches, maxAdmittedInAWindow: Math.max(0, ...admittedByWindow.values()), limitPerWindow: LIMIT,
    unavailableRate: +(counts.unavailable / counts.requests).toFixed(4), errorRate: +(counts.errors / counts.requests).toFixed(4), byStatus,
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  await stopAll();
  process.exit(lost === 0 && overAdmissions === 0 && analyticsMismatches.length === 0 && counts.requests > 0 ? 0 : 1);
} catch (err) {
  process.stderr.write(`soak failed: ${String(err)}\n`);
  await stopAll();
  process.exit(1);
}
