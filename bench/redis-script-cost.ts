/**
 * `npm run bench:redis-script`: what lua/ratelimit-check.lua costs Redis per verification, alone.
 * A redis-server on the load generator's CPU receives the very calls keygate's Redis limiter
 * makes (src/ratelimit/redis-check-call.ts builds them, redis-keys.ts names the counters): groups
 * of an identity's two auto-applied limits, as verifyKey sends them, batched as a turn of the
 * event loop batches them. Per case (identities the verifications go round, verifications per
 * call), rounds interleaved: Redis's CPU (INFO cpu) per verification and per call, and the
 * commands Redis ran per verification (INFO commandstats, a script's own included). No keygate
 * runs, so a change of the script or of the counters' layout is measured without the rest; with
 * --script, a changed copy of the script runs in the same rounds as the one it would replace, and
 * with --from, another checkout's script with the argument its own encoder builds.
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { encodeCheckCall, type KeyedCheck } from '../src/ratelimit/redis-check-call.js';
import { limiterField, limiterHash, slotOf } from '../src/ratelimit/redis-keys.js';
import { LuaScript } from '../src/redis/scripts.js';
import { installSignalHandlers, startRedis, stopAll } from './lib/procs.js';

const USAGE = `Usage: npm run bench:redis-script -- [options]
  --case I:B       identities verified in turn : verifications per script call (repeatable;
                   default 20000:38, 20:38, 20000:3; 38 is a turn's share at 100 connections, 3 a Cluster slot's)
  --calls N        script calls per round and case (default 3000)
  --rounds N       interleaved rounds, medians quoted (default 5)
  --script PATH    a variant of lua/ratelimit-check.lua to measure (repeatable; default that file):
                   every variant runs every case in the same interleaved rounds, on counters of its own
  --from DIR       also another checkout's script with its own call encoder (e.g. a git worktree of an
                   earlier commit, whose argument layout may differ), in the same rounds`;

const { values } = parseArgs({
  options: {
    case: { type: 'string', multiple: true, default: ['20000:38', '20:38', '20000:3'] },
    calls: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '5' },
    script: { type: 'string', multiple: true, default: ['lua/ratelimit-check.lua'] },
    from: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

// As the limiter loads its script: a resent call runs once (src/redis/scripts.ts).
type Encode = typeof encodeCheckCall;
const scripts: { label: string; check: LuaScript; encode: Encode }[] = values.script.map((path, i) => ({ label: relative(process.cwd(), path), check: new LuaScript(`ratelimit-check-${i}`, readFileSync(path, 'utf8'), true), encode: encodeCheckCall }));
if (values.from !== undefined) {
  const dir = resolve(values.from);
  const { encodeCheckCall: encode } = await import(pathToFileURL(join(dir, 'src/ratelimit/redis-check-call.ts')).href) as { encodeCheckCall: Encode };
  scripts.push({ label: `${dir}: lua/ratelimit-check.lua`, check: new LuaScript('ratelimit-check-from', readFileSync(join(dir, 'lua/ratelimit-check.lua'), 'utf8'), true), encode });
}
/**
 * A prefix per case, so each case's counters are a hash of their own as in a deployment with that
 * many identities: Redis stores a hash of a few hundred small fields differently from one of
 * thousands (a listpack, hash-max-listpack-entries), and one shared hash took the largest case's form.
 */
const keyPrefixOf = (c: Case): string => `kgs:${c.variant}:${c.identities}:${c.perCall}:`;
/** The bench's identity limits (bench/lib/api.ts seeds the same two). */
const LIMITS = [{ name: 'requests', durationMs: 60_000 }, { name: 'burst', durationMs: 1_000 }];
/** In flight at once, as a busy replica keeps a few calls outstanding. */
const PIPELINE = 8;

interface Case {
  /** Index into `scripts`. */
  readonly variant: number;
  readonly identities: number; readonly perCall: number; next: number; readonly cpuUs: number[]; readonly commands: number[]; readonly usec: Map<string, number[]>;
}

const cases: Case[] = values.case.flatMap((text) => {
  const [identities, perCall] = text.split(':').map(Number);
  if (!(identities! > 0 && perCall! > 0)) throw new Error(`--case ${text}: expected identities:perCall`);
  return scripts.map((_, variant) => ({ variant, identities: identities!, perCall: perCall!, next: 0, cpuUs: [], commands: [], usec: new Map() }));
});

/** One call's groups: the next `perCall` identities in turn, each with its two limits (cost 1, never reached). */
function groupsOf(c: Case): KeyedCheck[][] {
  const groups: KeyedCheck[][] = [];
  for (let g = 0; g < c.perCall; g++) {
    const owner = `id_bench_${c.next++ % c.identities}`;
    groups.push(LIMITS.map(({ name, durationMs }) => {
      const counter = `vk:i:${owner}:${name}`;
      const hash = limiterHash(keyPrefixOf(c), owner, false);
      return { check: { counter, owner, limit: 1e12, durationMs, cost: 1 }, key: limiterField(owner, counter, durationMs), hash, slot: slotOf(hash) };
    }));
  }
  return groups;
}

/** As the limiter does: one call a second also sweeps (redis-limiter.ts). */
let sweptAtMs = 0;
function sweepEach(): number {
  if (Date.now() - sweptAtMs < 1_000) return 0;
  sweptAtMs = Date.now();
  return 64;
}

/** Standalone Redis takes any keys in one script; the limiter groups by slot only for a Cluster. */
async function runCalls(redis: Redis, c: Case, calls: number): Promise<void> {
  let inFlight: Promise<unknown>[] = [];
  for (let i = 0; i < calls; i++) {
    const { check, encode } = scripts[c.variant]!;
    const call = encode(groupsOf(c), undefined, sweepEach());
    inFlight.push(check.run(redis, call.keys, call.args, true));
    if (inFlight.length >= PIPELINE) {
      await Promise.all(inFlight);
      inFlight = [];
    }
  }
  await Promise.all(inFlight);
}

const cpuUs = async (redis: Redis): Promise<number> => {
  const info = await redis.info('cpu');
  const field = (name: string): number => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? Number.NaN);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1e6;
};

/** Calls and µs per command (INFO excluded), from INFO commandstats. */
const commandStats = async (redis: Redis): Promise<Map<string, { calls: number; usec: number }>> => {
  const stats = new Map<string, { calls: number; usec: number }>();
  for (const [, name, calls, usec] of (await redis.info('commandstats')).matchAll(/cmdstat_([^:]+):calls=(\d+),usec=(\d+)/g)) {
    if (name !== 'info') stats.set(name!, { calls: Number(calls), usec: Number(usec) });
  }
  return stats;
};

/** Commands run between two readings, per verification; and the command µs (a script's own counted in it and on their own) by command. */
function commandsBetween(before: Map<string, { calls: number; usec: number }>, after: Map<string, { calls: number; usec: number }>, verifications: number): { commands: number; usec: Map<string, number> } {
  let commands = 0;
  const usec = new Map<string, number>();
  for (const [name, now] of after) {
    const then = before.get(name) ?? { calls: 0, usec: 0 };
    commands += (now.calls - then.calls) / verifications;
    usec.set(name, (now.usec - then.usec) / verifications);
  }
  return { commands, usec };
}

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  installSignalHandlers();
  const server = await startRedis();
  const redis = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true });
  await redis.connect();
  try {
    const calls = Number(values.calls);
    // Every counter exists before measuring, as in a steady state.
    for (const c of cases) await runCalls(redis, c, Math.ceil(c.identities / c.perCall) + 1);
    for (let round = 1; round <= Number(values.rounds); round++) {
      // Every other round in reverse, so no variant always runs right after the same one.
      for (const c of round % 2 === 0 ? [...cases].reverse() : cases) {
        const [cpuBefore, statsBefore] = [await cpuUs(redis), await commandStats(redis)];
        await runCalls(redis, c, calls);
        const verifications = calls * c.perCall;
        c.cpuUs.push((await cpuUs(redis) - cpuBefore) / verifications);
        const { commands, usec } = commandsBetween(statsBefore, await commandStats(redis), verifications);
        c.commands.push(commands);
        for (const [name, us] of usec) c.usec.set(name, [...c.usec.get(name) ?? [], us]);
      }
      process.stderr.write(`round ${round}/${values.rounds} done\n`);
    }
  } finally {
    redis.disconnect();
    await stopAll();
  }
  process.stdout.write(`\n${scripts.map((x) => x.label).join(', ')} alone, ${values.calls} calls per round and case, ${values.rounds} rounds (medians)\n\n`);
  process.stdout.write('| script | identities | verifications per call | Redis CPU µs per verification (each round) | per call | commands Redis ran per verification | commandstats µs per verification |\n|---|---|---|---|---|---|---|\n');
  for (const c of cases) {
    const us = median(c.cpuUs);
    const byCommand = [...c.usec].map(([name, xs]) => [name, median(xs)] as const).filter(([, x]) => x >= 0.01).sort((a, b) => b[1] - a[1])
      .map(([name, x]) => `${name} ${x.toFixed(2)}`).join(', ');
    process.stdout.write(`| ${scripts[c.variant]!.label} | ${c.identities} | ${c.perCall} | ${us.toFixed(2)} (${c.cpuUs.map((x) => x.toFixed(1)).join(' ')}) | ${(us * c.perCall).toFixed(1)} | ${median(c.commands).toFixed(2)} | ${byCommand} |\n`);
  }
}

main().catch(async (err: unknown) => {
  process.stderr.write(`bench:redis-script failed: ${err instanceof Error ? err.message : String(err)}\n`);
  await stopAll();
  process.exit(1);
});
