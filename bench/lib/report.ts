/** The tables at the end of a run, and the budget verdicts (bench/budgets.json). */
import type { MemoryResult } from './memory.js';
import type { HashRow } from '../hashing.js';
import type { RateResult } from './rate.js';
import { REFERENCE_SCENARIOS, SCENARIOS } from '../scenarios.js';
import { describeSteal } from './steal.js';

export interface Budget {
  readonly name: string;
  readonly server: string;
  readonly scenario?: string;
  readonly metric: 'ratio' | 'p99Ratio' | 'otherThreadsUs' | 'redisUsecPerVerification' | 'callsPerVerification' | 'sentPerVerification' | 'memoryDrift' | 'metricsCost';
  readonly min?: number;
  readonly max?: number;
}
export interface Budgets { readonly budgets: readonly Budget[] }

export interface Results {
  date: string;
  machine: string;
  settings: Record<string, unknown>;
  loadavgBefore: number[];
  loadavgAfter?: number[];
  /** Steal over the whole run (bench/lib/steal.ts): how much of the VM's CPU time its host took. */
  stealShare?: number;
  seconds?: number;
  seeding: Record<string, { keys: number; identities: number; seconds: number }>;
  /**
   * eventLoopUs, otherThreadsUs: CPU per request of the server's event loop and of all its other
   * threads (not known for a remote deployment); redisUs: that of its redis-servers, in the
   * Redis modes' verifyKeyLimits rounds.
   */
  throughput: Record<string, { rps: number; min: number; max: number; p99Ms: number; errors: number; rounds: number; eventLoopUs?: number; otherThreadsUs?: number; redisUs?: number }>;
  /**
   * At half of the scenario's max throughput; latencyBaseline: the baseline at that same rate.
   * Over several rounds, each the median of the rounds (rate.ts, medianRate).
   */
  latency: Record<string, RateResult>;
  latencyBaseline: Record<string, RateResult>;
  /** p99 over the baseline's, the median of the rounds' own ratios (absent: the two medians' ratio). */
  p99Ratio?: Record<string, number>;
  calls: Record<string, { verifications: number; redisCalls: number; perVerification: number; usecPerVerification: number; sent: number; sentPerVerification: number; inScripts: number; byCommand: Record<string, number>; rps: number; coldPassPerKey: number }>;
  memory?: MemoryResult;
  hashing?: HashRow[];
}

export interface Verdict { readonly name: string; readonly value: number | undefined; readonly limit: string; readonly pass: boolean }

function metric(b: Budget, r: Results): number | undefined {
  const key = `${b.server}/${b.scenario}`;
  switch (b.metric) {
    case 'ratio': return r.throughput[key] && r.throughput.baseline ? r.throughput[key].rps / r.throughput.baseline.rps : undefined;
    case 'p99Ratio': return p99RatioOf(r, key);
    case 'otherThreadsUs': return r.throughput[key]?.otherThreadsUs;
    case 'redisUsecPerVerification': return r.calls[b.server]?.usecPerVerification;
    case 'callsPerVerification': return r.calls[b.server]?.perVerification;
    case 'sentPerVerification': return r.calls[b.server]?.sentPerVerification;
    case 'memoryDrift': return r.memory ? Math.abs(r.memory.drift) : undefined;
    // verifyKey throughput with metrics recorded, over a twin with METRICS=off (bench/run.ts).
    case 'metricsCost': {
      const on = r.throughput['embedded-metrics-on/verifyKey'];
      const off = r.throughput['embedded-metrics-off/verifyKey'];
      return on && off ? on.rps / off.rps : undefined;
    }
  }
}

/** A scenario's p99 over the baseline's at the same rate: the median of its rounds' ratios where there were rounds. */
function p99RatioOf(r: Results, key: string): number | undefined {
  const own = r.latency[key];
  const base = r.latencyBaseline[key];
  return r.p99Ratio?.[key] ?? (own && base ? own.p99Ms / base.p99Ms : undefined);
}

export function evaluate(budgets: Budgets, r: Results): Verdict[] {
  return budgets.budgets.map((b) => {
    const value = metric(b, r);
    const limit = b.min !== undefined ? `≥ ${b.min}` : `≤ ${b.max}`;
    // Not measured (a skipped part) is reported, not failed.
    if (value === undefined || Number.isNaN(value)) return { name: b.name, value, limit, pass: true };
    const pass = (b.min === undefined || value >= b.min) && (b.max === undefined || value <= b.max);
    return { name: b.name, value, limit, pass };
  });
}

export const median = (a: readonly number[]): number => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n % 2 ? s[n >> 1]! : (s[n / 2 - 1]! + s[n / 2]!) / 2; };

const k = (n: number): string => `${(n / 1000).toFixed(1)}k`;
const ms = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(3));
const times = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(2));

export const THROUGHPUT_HEADER = [
  '| server | scenario | max req/s (min–max) | × baseline | event loop µs/req | other threads µs/req | rate | p50 | p99 | p99.9 | baseline p99 at that rate | p99 × baseline | errors |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
];

/** One row of the throughput and latency table; what was not measured shows as –. */
export function throughputRow(r: Results, server: string, scenario: string, key: string): string {
  const base = r.throughput.baseline;
  const us = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(1));
  const t = r.throughput[key];
  const l = r.latency[key];
  const b = r.latencyBaseline[key];
  const ratio = t && base ? (t.rps / base.rps).toFixed(2) : '–';
  const errs = (t?.errors ?? 0) + (l ? l.errors + l.non2xx : 0);
  return `| ${server} | ${scenario} | ${t ? `${k(t.rps)} (${k(t.min)}–${k(t.max)})` : '–'} | ${ratio} | ${us(t?.eventLoopUs)} | ${us(t?.otherThreadsUs)} | ${l ? k(l.offered) : '–'} | ${ms(l?.p50Ms)} | ${ms(l?.p99Ms)} | ${ms(l?.p999Ms)} | ${ms(b?.p99Ms)} | ${times(p99RatioOf(r, key))} | ${errs} |`;
}

export function printReport(r: Results, verdicts: readonly Verdict[]): void {
  const out: string[] = ['', `## Results (${r.date}${r.settings.quick ? ', quick' : ''}; ${r.machine})`, ''];
  const base = r.throughput.baseline;
  const spread = r.settings.baselineRunS !== undefined
    ? `median of ${String(r.settings.rounds)} round(s) of ${String(r.settings.durationS)} s (min–max), each run after a ${String(r.settings.baselineRunS)} s run of the baseline; × baseline: over the median of all ${base?.rounds ?? 0} baseline runs`
    : `median of ${base?.rounds ?? 0} run(s) of ${String(r.settings.durationS)} s (min–max)`;
  out.push(`Max throughput: wrk -t1 -c100, ${spread}; CPU µs per request of the server's event loop and of its other threads (all on the server's core). Latency: autocannon rate mode at half the row's max throughput, 100 connections, ${String(r.settings.rateDurationS)} s, ms, then the baseline at the same rate${Number(r.settings.latencyRounds ?? 1) > 1 ? `; ${String(r.settings.latencyRounds)} interleaved rounds, medians, and p99 × baseline the median of the rounds' ratios` : ''}.`, '');
  out.push(...THROUGHPUT_HEADER);
  const row = (server: string, scenario: string, key: string): void => { out.push(throughputRow(r, server, scenario, key)); };
  row('baseline (uWS fixed reply)', '–', 'baseline');
  for (const server of ['embedded', 'redis', 'cluster']) for (const sc of SCENARIOS) row(server, sc.id, `${server}/${sc.id}`);
  row('embedded, METRICS=on (metrics-cost pair)', 'verifyKey', 'embedded-metrics-on/verifyKey');
  row('embedded, METRICS=off (metrics-cost pair)', 'verifyKey', 'embedded-metrics-off/verifyKey');
  // bench/minimal-verify-server.ts on embedded's keys: root key, JSON, SHA-256, a Map, a JSON answer.
  for (const id of REFERENCE_SCENARIOS) row('reference (minimal verify, no bookkeeping)', id, `reference/${id}`);
  if (Object.keys(r.calls).length > 0) {
    out.push('', 'Redis calls per verification (verifyKeyLimits, wrk 100 connections at full speed, after one pass over the keys filled the record cache). commandstats: INFO commandstats summed over every master (INFO excluded), which counts the commands Lua scripts run too; sent: commands keygate sent (MONITOR lines not from a script); cold pass: commandstats calls per key of that first pass:', '');
    out.push('| server | verifications | req/s | commandstats calls | per verification | Redis CPU µs per verification (INFO cpu, median of the max-throughput rounds) | sent by keygate | per verification | cold pass, per key | by command (commandstats) |', '|---|---|---|---|---|---|---|---|---|---|');
    for (const [server, c] of Object.entries(r.calls)) {
      out.push(`| ${server} | ${c.verifications} | ${k(c.rps)} | ${c.redisCalls} | ${c.perVerification.toFixed(3)} | ${c.usecPerVerification.toFixed(2)} | ${c.sent} | ${c.sentPerVerification.toFixed(3)} | ${c.coldPassPerKey.toFixed(2)} | ${Object.entries(c.byCommand).map(([n, v]) => `${n} ${v}`).join(', ')} |`);
    }
  }
  if (r.memory) {
    const m = r.memory;
    out.push('', `Memory (embedded, ${m.keys} distinct keys, ${m.durationS} s, ${m.verifications} verifications at ${k(m.rps)}/s; seeded in ${m.seedSeconds.toFixed(1)} s by keys.migrateKeys at ${k(m.migrateKeysPerS)} keys/s, keys.createKey ${k(m.createKeyPerS)} keys/s; then every key verified once in ${m.firstPassSeconds.toFixed(0)} s, completing its migration, before the measured run):`, '');
    out.push('| RSS after warm-up | RSS at end | drift | peak after warm-up | anon after warm-up → end |', '|---|---|---|---|---|');
    out.push(`| ${m.referenceMiB.toFixed(0)} MiB | ${m.finalMiB.toFixed(0)} MiB | ${(m.drift * 100).toFixed(1)} % | ${m.peakMiB.toFixed(0)} MiB | ${m.anonReferenceMiB.toFixed(0)} → ${m.anonFinalMiB.toFixed(0)} MiB |`);
  }
  out.push('', 'Budgets (bench/budgets.json):', '', '| budget | value | limit | |', '|---|---|---|---|');
  // A budget whose part of the run was skipped (--skip-memory) is neither passed nor failed.
  for (const v of verdicts) out.push(`| ${v.name} | ${v.value === undefined ? 'not measured' : v.value.toFixed(3)} | ${v.limit} | ${v.value === undefined ? 'skipped' : v.pass ? 'pass' : '**FAIL**'} |`);
  const steal = describeSteal(r.stealShare);
  out.push('', `load average before ${r.loadavgBefore.map((x) => x.toFixed(2)).join(' ')}, after ${r.loadavgAfter?.map((x) => x.toFixed(2)).join(' ') ?? '?'}; run took ${(r.seconds ?? 0).toFixed(0)} s${steal === '' ? '' : `; ${steal}`}`);
  const failed = verdicts.filter((v) => !v.pass).length;
  const skipped = verdicts.filter((v) => v.value === undefined).length;
  const smoke = r.settings.quick === true ? ' (a quick run: a smoke test, so they do not fail the run)' : '';
  out.push(`${failed ? `${failed} budget(s) FAILED${smoke}` : 'all measured budgets pass'}${skipped ? `, ${skipped} not measured` : ''}`, '');
  process.stdout.write(`${out.join('\n')}\n`);
}
