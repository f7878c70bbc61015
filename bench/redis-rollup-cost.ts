/**
 * `npm run bench:redis-rollups`: what the analytics rollups cost Redis when the recorder writes a
 * minute's rows (once a minute: every key verified in that minute gets a row of each granularity,
 * minute, hour, day and month). A redis-server on the load generator's CPU receives the very
 * calls keygate makes (src/storage/redis/verifications.ts, the same store), without keygate. Each
 * round writes the rows of `--keys` keys for a new minute: its minute rows are new, its hour, day
 * and month rows exist from the round before (as every minute but the first of an hour). Reports
 * Redis's CPU (INFO cpu) per row and the commands it ran per row (INFO commandstats).
 */
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { storageKeys } from '../src/storage/redis/keys.js';
import { RedisVerificationStore } from '../src/storage/redis/verifications.js';
import { verificationRecord } from '../src/storage/records.js';
import { GRANULARITIES, rollupDeltas } from '../src/storage/rollups.js';
import { NO_COLUMNS } from '../src/storage/verification-columns.js';
import { installSignalHandlers, startRedis, stopAll } from './lib/procs.js';
import { diffCalls, redisCalls, redisCpuSeconds } from './lib/redis-calls.js';
import { median } from './lib/report.js';

const USAGE = `Usage: npm run bench:redis-rollups -- [options]
  --keys N     keys verified in each minute (rows per granularity; default 20000)
  --rounds N   minutes written, medians quoted (default 5)`;

const { values } = parseArgs({
  options: { keys: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '5' }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const MINUTE_MS = 60_000;
/** The first minute of an hour, so the rounds' minutes share their hour, day and month rows. */
const START = Date.UTC(2026, 0, 5, 10, 0);

/** One minute's rows: a VALID verification of each key, with a latency (as verifyKey records). */
function minuteOf(keys: number, minute: number) {
  const records = Array.from({ length: keys }, (_, i) =>
    verificationRecord(START + minute * MINUTE_MS + (i % MINUTE_MS), `req_${i}`, 'api_bench', `key_${i}`, `id_${i % 20}`, null, 'VALID', null, 0, 0.05));
  return rollupDeltas(records, GRANULARITIES);
}

async function main(): Promise<void> {
  installSignalHandlers();
  const server = await startRedis();
  const client = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true });
  await client.connect();
  const keys = Number(values.keys);
  const cpuUs: number[] = [];
  const commands: number[] = [];
  const byCommand = new Map<string, number[]>();
  try {
    const store = new RedisVerificationStore(client, storageKeys('kgr:'), 1_000);
    // The minute before the rounds: it makes the hour, day and month rows the rounds add to.
    await store.appendColumns(NO_COLUMNS, minuteOf(keys, 0));
    for (let round = 1; round <= Number(values.rounds); round++) {
      const rows = minuteOf(keys, round);
      const [cpuBefore, callsBefore] = [redisCpuSeconds([server.port]), redisCalls([server.port])];
      await store.appendColumns(NO_COLUMNS, rows);
      const callsAfter = redisCalls([server.port]);
      cpuUs.push(((redisCpuSeconds([server.port]) - cpuBefore) * 1e6) / rows.length);
      commands.push((callsAfter.total - callsBefore.total) / rows.length);
      for (const [name, n] of Object.entries(diffCalls(callsBefore.byCommand, callsAfter.byCommand))) {
        byCommand.set(name, [...byCommand.get(name) ?? [], n / rows.length]);
      }
      process.stderr.write(`round ${round}/${values.rounds} done\n`);
    }
  } finally {
    client.disconnect();
    await stopAll();
  }
  const rounds = Number(values.rounds);
  const ofEveryRound = (xs: readonly number[]): number[] => [...xs, ...new Array<number>(rounds - xs.length).fill(0)];
  process.stdout.write(`\nanalytics rollups of a minute of ${keys} keys (${4 * keys} rows: minute, hour, day, month), ${rounds} rounds (medians)\n\n`);
  process.stdout.write('| Redis CPU µs per row (each round) | commands per row | by command, per row |\n|---|---|---|\n');
  const perCommand = [...byCommand].map(([name, xs]) => `${name} ${median(ofEveryRound(xs)).toFixed(2)}`).join(', ');
  process.stdout.write(`| ${median(cpuUs).toFixed(2)} (${cpuUs.map((x) => x.toFixed(2)).join(' ')}) | ${median(commands).toFixed(2)} | ${perCommand} |\n`);
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench:redis-rollups failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await stopAll();
  process.exit(2);
});
