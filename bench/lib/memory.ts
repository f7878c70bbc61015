/**
 * Memory over a long run: a fresh embedded keygate, `keys` distinct keys imported with
 * keys.migrateKeys (batches of 10,000 hashes; a keys.createKey sample is timed for comparison),
 * then one pass verifies every key once (a migrated key's first verification completes its
 * migration, a write, which is not the steady state), then wrk verifies them in turn for
 * `durationS` while this samples the process's RSS once a second. Drift: median RSS of the last
 * 10 % of the run against the median of the 10 % right after the warm-up (its first 20 %).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, seedCreatedKeys, seedMigratedKeys } from './api.js';
import { createMigration, ROOT_KEY, rssOf, startKeygate } from './procs.js';
import { log } from './progress.js';
import { runWrk } from './wrk.js';

export interface MemoryResult {
  readonly keys: number;
  readonly durationS: number;
  readonly verifications: number;
  readonly rps: number;
  readonly seedSeconds: number;
  /** The pass that verified every key once before the measured run (it completes the migrations). */
  readonly firstPassSeconds: number;
  readonly migrateKeysPerS: number;
  readonly createKeyPerS: number;
  readonly referenceMiB: number;
  readonly finalMiB: number;
  readonly peakMiB: number;
  readonly drift: number;
  readonly anonReferenceMiB: number;
  readonly anonFinalMiB: number;
  readonly samples: { t: number; rss: number; anon: number; file: number }[];
}

const MiB = 2 ** 20;
const median = (a: readonly number[]): number => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1] ?? NaN; };

export async function runMemory(opts: { keys: number; durationS: number; work: string }): Promise<MemoryResult> {
  log(`memory: ${opts.keys} distinct keys verified for ${opts.durationS} s (embedded)`);
  const server = await startKeygate('embedded', 'memory');
  try {
    const { apiId } = await call<{ apiId: string }>(server.url, ROOT_KEY, 'apis.createApi', { name: 'bench-memory' });
    const migrationId = createMigration(server);
    const sampleN = Math.min(5_000, opts.keys);
    let t = Date.now();
    await seedCreatedKeys(server.url, ROOT_KEY, apiId, sampleN, () => {});
    const createKeyPerS = sampleN / ((Date.now() - t) / 1000);
    t = Date.now();
    const keys = await seedMigratedKeys(server.url, ROOT_KEY, apiId, migrationId, opts.keys, 10_000, (n) => {
      if (process.stdout.isTTY) process.stdout.write(`\r\x1b[2K  … keys.migrateKeys: ${n}/${opts.keys}`);
    });
    if (process.stdout.isTTY) process.stdout.write('\r\x1b[2K');
    const seedSeconds = (Date.now() - t) / 1000;
    const migrateKeysPerS = opts.keys / seedSeconds;
    log(`  ✓ seeded ${opts.keys} keys in ${seedSeconds.toFixed(1)} s with keys.migrateKeys (${(migrateKeysPerS / 1000).toFixed(1)}k keys/s; keys.createKey, 64 in flight: ${(createKeyPerS / 1000).toFixed(1)}k keys/s)`);
    const check = await call<{ code: string }>(server.url, ROOT_KEY, 'keys.verifyKey', { key: keys[keys.length - 1] });
    if (check.code !== 'VALID') throw new Error(`a migrated key does not verify: ${JSON.stringify(check)}`);
    const file = join(opts.work, 'memory-keys.txt');
    const writeKeys = (list: readonly string[]): void => writeFileSync(file, `${list.map((key) => JSON.stringify({ key })).join('\n')}\n`);
    t = Date.now();
    // wrk starts at the file's first body every run: each chunk gets the keys not verified yet.
    for (let verified = 0; verified < keys.length;) {
      writeKeys(keys.slice(verified));
      const pass = await runWrk({ url: `${server.url}/v2/keys.verifyKey`, bodiesFile: file, rootKey: ROOT_KEY, durationS: 10, label: `first pass (${verified}/${keys.length})` });
      if (pass.errors + pass.non2xx > 0) throw new Error(`memory run, first pass: ${pass.errors} errors, ${pass.non2xx} non-2xx`);
      verified += pass.requests;
    }
    const firstPassSeconds = (Date.now() - t) / 1000;
    log(`  ✓ every key verified once in ${firstPassSeconds.toFixed(0)} s (the first verification of a migrated key completes its migration)`);
    writeKeys(keys);

    const samples: MemoryResult['samples'] = [];
    const t0 = Date.now();
    const sample = (): void => { samples.push({ t: (Date.now() - t0) / 1000, ...rssOf(server.pid) }); };
    sample();
    const timer = setInterval(sample, 1000);
    const r = await runWrk({
      url: `${server.url}/v2/keys.verifyKey`, bodiesFile: file, rootKey: ROOT_KEY, durationS: opts.durationS, label: 'memory run',
      onTick: () => { const s = samples[samples.length - 1]; return s ? `RSS ${(s.rss / MiB).toFixed(0)} MiB (anon ${(s.anon / MiB).toFixed(0)})` : ''; },
    });
    clearInterval(timer);
    sample();
    const warmEnd = opts.durationS * 0.2;
    const refWindow = samples.filter((s) => s.t >= warmEnd && s.t < warmEnd + opts.durationS * 0.1);
    const lastWindow = samples.filter((s) => s.t >= opts.durationS * 0.9);
    const after = samples.filter((s) => s.t >= warmEnd);
    const ref = median(refWindow.map((s) => s.rss));
    const fin = median(lastWindow.map((s) => s.rss));
    const result: MemoryResult = {
      keys: opts.keys, durationS: opts.durationS, verifications: r.requests, rps: r.rps, seedSeconds, firstPassSeconds, migrateKeysPerS, createKeyPerS,
      referenceMiB: ref / MiB, finalMiB: fin / MiB, peakMiB: Math.max(...after.map((s) => s.rss)) / MiB, drift: fin / ref - 1,
      anonReferenceMiB: median(refWindow.map((s) => s.anon)) / MiB, anonFinalMiB: median(lastWindow.map((s) => s.anon)) / MiB, samples,
    };
    log(`  ✓ ${r.requests} verifications (${(r.requests / opts.keys).toFixed(1)} passes over the keys), RSS ${result.referenceMiB.toFixed(0)} → ${result.finalMiB.toFixed(0)} MiB (${(result.drift * 100).toFixed(1)} %), peak ${result.peakMiB.toFixed(0)} MiB; anon ${result.anonReferenceMiB.toFixed(0)} → ${result.anonFinalMiB.toFixed(0)} MiB`);
    if (r.errors + r.non2xx > 0) throw new Error(`memory run: ${r.errors} errors, ${r.non2xx} non-2xx`);
    return result;
  } finally {
    await server.stop();
  }
}
