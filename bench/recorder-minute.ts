/**
 * `npm run bench:recorder-minute`: what the analytics recorder's writes cost on an embedded store,
 * batch by batch, across minute boundaries, where its rollup rows become due. The recorder and the
 * LMDB store keygate's writer thread runs (src/analytics/recorder.ts), fed as that thread is fed:
 * `--rate` records a second over `--keys` keys in 100 ms batches, on a simulated clock, for
 * `--minutes` minutes. Reports the CPU of this process (the store's work and its garbage
 * collection) for the batches written in the first seconds after each minute ends, the largest
 * batch elsewhere, and the whole run: a burst here is a stall of whatever shares the writer's core.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { VerificationRecorder } from '../src/analytics/recorder.js';
import { openLmdbStorage } from '../src/storage/lmdb/open.js';

const USAGE = `Usage: npm run bench:recorder-minute -- [options]
  --keys N      keys verified in turn (default 20000)
  --rate N      verifications a second (default 10000)
  --minutes N   minutes simulated (default 3)
  --retained N  verification records the store keeps before it drops the oldest (default keygate's, 1000000)`;

const { values } = parseArgs({
  options: { keys: { type: 'string', default: '20000' }, rate: { type: 'string', default: '10000' }, minutes: { type: 'string', default: '3' }, retained: { type: 'string', default: '1000000' }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const keys = Number(values.keys);
const perBatch = Math.round(Number(values.rate) / 10);
const minutes = Number(values.minutes);

const dir = mkdtempSync(join(tmpdir(), 'keygate-recorder-minute-'));
const storage = openLmdbStorage(dir, { verificationsRetained: Number(values.retained) });
const log = { error: (obj: object, msg: string) => console.error(msg, obj), warn: (obj: object, msg: string) => console.error(msg, obj) };
let now = Date.UTC(2025, 4, 20, 12, 0, 0);
const recorder = new VerificationRecorder(storage.verifications, log, { flushIntervalMs: 3_600_000, batchSize: 1_000_000, now: () => now });

let next = 0;
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
/** One 100 ms batch of records, written as the writer thread writes it; its CPU ms. */
async function batch(): Promise<number> {
  for (let i = 0; i < perBatch; i++, next++) {
    recorder.record({ time: now, requestId: `req_${next}`, apiId: 'api_bench', keyId: `key_${next % keys}`, outcome: 'VALID', spentCredits: 0, latency: 0.1 });
  }
  const start = process.cpuUsage();
  await recorder.writeBuffered();
  return cpuMs(start);
}

const runStart = process.cpuUsage();
// The first minute fills the store and warms up; it is not reported.
const rows: string[] = [];
for (let m = 0; m <= minutes; m++) {
  const afterEnd: number[] = [];
  let largestElsewhere = 0;
  for (let b = 0; b < 600; b++) {
    const ms = await batch();
    if (b < 30) afterEnd.push(ms);
    else largestElsewhere = Math.max(largestElsewhere, ms);
    now += 100;
  }
  if (m > 0) {
    const seconds = [0, 1, 2].map((s) => afterEnd.slice(s * 10, s * 10 + 10).reduce((a, b) => a + b, 0).toFixed(0));
    rows.push(`| ${m} | ${afterEnd[0]!.toFixed(1)} | ${Math.max(...afterEnd).toFixed(1)} | ${seconds.join(', ')} | ${largestElsewhere.toFixed(1)} |`);
  }
}
const totalMs = cpuMs(runStart);
await recorder.close();
await storage.close();
rmSync(dir, { recursive: true, force: true });

process.stdout.write(`\nrecorder on LMDB, ${keys} keys, ${perBatch * 10} records/s in 100 ms batches, ${minutes} minutes after one of warm-up (CPU ms of this process)\n\n`);
process.stdout.write('| minute | first batch after it began | largest batch in its first 3 s | each of its first 3 s | largest batch after that |\n|---|---|---|---|---|\n');
process.stdout.write(`${rows.join('\n')}\n\nwhole run: ${(totalMs / 1000).toFixed(2)} s of CPU\n`);
