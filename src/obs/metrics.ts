/**
 * Prometheus metrics (GET /metrics), recorded without prom-client on the request path.
 *
 * prom-client's labelled counters and histograms hash their label sets on every call; every
 * verifyKey passes here, so the hot path only bumps plain numbers held in
 * objects made at start-up (one per procedure, one per verification code), and prom-client reads
 * them when /metrics is scraped, through "pulled" metrics (pulled() below). prom-client also
 * supplies the process and event-loop-lag metrics (collectDefaultMetrics).
 */
import type { RecorderStats } from '../analytics/recorder.js';
import type { CircuitState } from '../redis/circuit-breaker.js';
import { collectDefaultMetrics, Registry } from 'prom-client';

/** Upper bounds (seconds) of the latency buckets: sub-millisecond detail, where keygate lives. */
export const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Counts and latencies of one label set (a procedure, a Redis command). */
export class LatencyStats {
  /** Cumulative counts are built at scrape time; here each bucket counts its own observations. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;

  observe(seconds: number): void {
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[i] as number)) i++;
    this.buckets[i] = (this.buckets[i] as number) + 1;
    this.sum += seconds;
    this.count++;
  }
}

/** One procedure (or one of the fixed non-procedure paths): answers by status, and latency. */
export class RequestStats extends LatencyStats {
  /** Answers by HTTP status (index): a typed array, not a Map, on the path of every request. */
  private readonly statuses = new Float64Array(600);
  constructor(readonly procedure: string) {
    super();
  }

  answered(status: number, seconds: number): void {
    this.statuses[status] = (this.statuses[status] as number) + 1;
    this.observe(seconds);
  }

  /** [status, count] for every status answered at least once. */
  byStatus(): [number, number][] {
    const seen: [number, number][] = [];
    this.statuses.forEach((n, status) => { if (n > 0) seen.push([status, n]); });
    return seen;
  }
}

/** A cache's own counters, read at scrape time. */
export interface CacheCounters {
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
}

interface Sample {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Map<string, RequestStats>();
  /** verifyKey outcomes by code (VALID, NOT_FOUND, …). */
  private readonly verifications = new Map<string, number>();
  /** Rate-limit checks by outcome. */
  readonly ratelimit = { passed: 0, denied: 0 };
  private readonly caches = new Map<string, () => CacheCounters>();
  private readonly redisCommands = new Map<string, LatencyStats>();
  private readonly redisErrors = new Map<string, number>();
  private recorderStats: (() => RecorderStats) | undefined;
  private readInFlight: (() => number) | undefined;
  private readCircuits: (() => ReadonlyMap<string, Readonly<CircuitState>>) | undefined;

  constructor() {
    // The lag histogram's timer wakes an idle process every so many ms: at prom-client's 10 an idle
    // keygate spends a visible share of a core on it; at 100 every stall that long is still seen.
    collectDefaultMetrics({ register: this.registry, prefix: 'keygate_', eventLoopMonitoringPrecision: 100 });
    this.pulled('keygate_requests_total', 'Requests answered, by procedure and HTTP status.', 'counter', () =>
      [...this.requests.values()].flatMap((r) => r.byStatus().map(([status, n]) => ({ labels: { procedure: r.procedure, status }, value: n }))));
    this.pulled('keygate_request_duration_seconds', 'Time from the request line to the answer, by procedure.', 'histogram', () =>
      [...this.requests.values()].flatMap((r) => histogramSamples('keygate_request_duration_seconds', { procedure: r.procedure }, r)));
    this.pulled('keygate_verifications_total', 'keys.verifyKey outcomes, by code.', 'counter', () =>
      [...this.verifications].map(([code, n]) => ({ labels: { code }, value: n })));
    this.pulled('keygate_ratelimit_decisions_total', 'Rate-limit checks (ratelimit.*, verifyKey limits), by outcome.', 'counter', () =>
      [{ labels: { outcome: 'passed' }, value: this.ratelimit.passed }, { labels: { outcome: 'denied' }, value: this.ratelimit.denied }]);
    for (const [kind, help] of [['hits', 'lookups answered from the cache'], ['misses', 'lookups the cache could not answer'], ['evictions', 'entries dropped to stay within size']] as const) {
      this.pulled(`keygate_cache_${kind}_total`, `In-process cache ${help}, by cache.`, 'counter', () =>
        [...this.caches].map(([cache, read]) => ({ labels: { cache }, value: read()[kind] })));
    }
    this.pulled('keygate_redis_command_duration_seconds', 'Redis command round trips, by command (distributed mode).', 'histogram', () =>
      [...this.redisCommands].flatMap(([command, s]) => histogramSamples('keygate_redis_command_duration_seconds', { command }, s)));
    this.pulled('keygate_redis_command_errors_total', 'Redis commands that failed or timed out, by command.', 'counter', () =>
      [...this.redisErrors].map(([command, n]) => ({ labels: { command }, value: n })));
    const circuits = (value: (c: Readonly<CircuitState>) => number): Sample[] =>
      [...this.readCircuits?.() ?? []].map(([node, c]) => ({ labels: { node }, value: value(c) }));
    this.pulled('keygate_redis_circuit_open', '1 while commands for this Redis master fail at once (it stopped answering; probed until it answers), by master.', 'gauge', () =>
      circuits((c) => (c.open ? 1 : 0)));
    this.pulled('keygate_redis_circuit_opened_total', 'Times a Redis master stopped answering and its circuit opened, by master.', 'counter', () =>
      circuits((c) => c.opened));
    this.pulled('keygate_redis_circuit_rejected_total', 'Commands failed at once because their master\'s circuit was open, by master.', 'counter', () =>
      circuits((c) => c.rejected));
    this.pulled('keygate_requests_in_flight', 'Procedure calls whose headers have arrived and whose answer is not yet sent (shutdown waits for them).', 'gauge', () =>
      this.readInFlight ? [{ labels: {}, value: this.readInFlight() }] : []);
    this.pulled('keygate_verification_records_total', 'Verification records (analytics) by what became of them: written, failed (the store refused them past the buffer bound or until shutdown; refused writes are kept and tried again until then), dropped (the store fell behind).', 'counter', () => {
      const r = this.recorderStats?.();
      return r ? (['written', 'failed', 'dropped'] as const).map((result) => ({ labels: { result }, value: r[result] })) : [];
    });
    this.pulled('keygate_verification_records_pending', 'Verification records recorded and not yet written.', 'gauge', () => {
      const r = this.recorderStats?.();
      return r ? [{ labels: {}, value: r.pending }] : [];
    });
    this.pulled('keygate_analytics_writer_thread', '1 while verification records are written by the writer thread; 0 while they are written on the event loop (ANALYTICS_WRITER, or the thread failed).', 'gauge', () => {
      const r = this.recorderStats?.();
      return r ? [{ labels: {}, value: r.onThread ? 1 : 0 }] : [];
    });
  }

  /** Registers the verification recorder, whose counters are read at each scrape. */
  recorder(read: () => RecorderStats): void {
    this.recorderStats = read;
  }

  /** Registers the Redis masters' circuit breakers, read at each scrape. */
  circuits(read: () => ReadonlyMap<string, Readonly<CircuitState>>): void {
    this.readCircuits = read;
  }

  /** Registers the server's count of requests in flight, read at each scrape. */
  inFlight(read: () => number): void {
    this.readInFlight = read;
  }

  /** The stats object a route keeps for itself (made at start-up, bumped per request). */
  requestStats(procedure: string): RequestStats {
    let stats = this.requests.get(procedure);
    if (!stats) this.requests.set(procedure, stats = new RequestStats(procedure));
    return stats;
  }

  verification(code: string): void {
    const n = this.verifications.get(code);
    this.verifications.set(code, n === undefined ? 1 : n + 1);
  }

  /** Registers a cache whose counters are read at each scrape. */
  cache(name: string, read: () => CacheCounters): void {
    this.caches.set(name, read);
  }

  redisCommand(command: string, seconds: number, failed: boolean): void {
    let stats = this.redisCommands.get(command);
    if (!stats) this.redisCommands.set(command, stats = new LatencyStats());
    stats.observe(seconds);
    if (failed) this.redisErrors.set(command, (this.redisErrors.get(command) ?? 0) + 1);
  }

  /** The Prometheus text exposition. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private pulled(name: string, help: string, type: 'counter' | 'gauge' | 'histogram', read: () => Sample[]): void {
    this.registry.registerMetric({
      name, help, type, aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: read() }),
    } as unknown as Parameters<Registry['registerMetric']>[0]);
  }
}

function histogramSamples(name: string, labels: Record<string, string>, stats: LatencyStats): Sample[] {
  const samples: Sample[] = [];
  let cumulative = 0;
  LATENCY_BUCKETS.forEach((le, i) => {
    cumulative += stats.buckets[i] as number;
    samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
  });
  samples.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: stats.count });
  samples.push({ metricName: `${name}_sum`, labels, value: stats.sum });
  samples.push({ metricName: `${name}_count`, labels, value: stats.count });
  return samples;
}
