/**
 * GET /metrics: Prometheus text that a Prometheus parser reads, whose counters move by exactly the
 * requests a test makes; METRICS=off removes it. Also the per-request log line it sits beside.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { startHarness, useHarness, type Harness } from '../support/harness.js';

type Family = { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }[] };

type Scrape = Family[] & { text: string };

async function scrape(h: Harness): Promise<Scrape> {
  const res = await fetch(`${h.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return Object.assign(parsePrometheusTextFormat(text) as Family[], { text });
}

/**
 * One histogram series, read from the text: the parser above merges a histogram's label sets
 * into one, so histograms are checked line by line.
 */
function histogram(s: Scrape, name: string, procedure: string, absent: 'zero' | 'fail' = 'fail'): { buckets: number[]; count: number } {
  const sample = (suffix: string, extra = ''): RegExp => new RegExp(`^${name}_${suffix}\\{procedure="${procedure.replace('.', '\\.')}"${extra}\\} (\\S+)$`, 'gm');
  const buckets = [...s.text.matchAll(sample('bucket', ',le="[^"]+"'))].map((m) => Number(m[1]));
  const count = sample('count').exec(s.text)?.[1];
  if (count === undefined && absent === 'fail') throw new Error(`no series ${name}{procedure="${procedure}"} in the scrape`);
  return { buckets, count: Number(count ?? 0) };
}

/**
 * One sample's value. A missing series is an error, so a counter that vanished fails the test;
 * only a scrape taken before anything was counted may read it as 0 (`absent: 'zero'`).
 */
function value(families: Family[], name: string, labels: Record<string, string>, absent: 'zero' | 'fail' = 'fail'): number {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) {
    if (absent === 'zero') return 0;
    throw new Error(`no series ${name}${JSON.stringify(labels)} in the scrape`);
  }
  const number = Number(sample.value ?? sample.count);
  expect(Number.isFinite(number), `${name}${JSON.stringify(labels)} is a number`).toBe(true);
  return number;
}

describe('GET /metrics', () => {
  const h = useHarness();

  it('counts requests by procedure and status, latencies, verification codes and limit decisions exactly', async () => {
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId, ratelimits: [{ name: 'burst', limit: 2, duration: 60_000, autoApply: true }] });
    const before = await scrape(h);

    for (let i = 0; i < 5; i++) await h.verify(key); // 2 VALID, then 3 RATE_LIMITED
    for (let i = 0; i < 4; i++) await h.verify(`sk_unknown_${i}`); // NOT_FOUND
    await h.call('keys.verifyKey', { nope: true }); // 400
    await h.call('keys.verifyKey', { key }, { rootKey: 'rk_not_a_root_key' }); // 401
    const after = await scrape(h);
    const delta = (name: string, labels: Record<string, string>): number => value(after, name, labels) - value(before, name, labels, 'zero');

    expect(delta('keygate_requests_total', { procedure: 'keys.verifyKey', status: '200' })).toBe(9);
    expect(delta('keygate_requests_total', { procedure: 'keys.verifyKey', status: '400' })).toBe(1);
    expect(delta('keygate_requests_total', { procedure: 'keys.verifyKey', status: '401' })).toBe(1);
    expect(histogram(after, 'keygate_request_duration_seconds', 'keys.verifyKey').count
      - histogram(before, 'keygate_request_duration_seconds', 'keys.verifyKey', 'zero').count).toBe(11);
    expect(delta('keygate_verifications_total', { code: 'VALID' })).toBe(2);
    expect(delta('keygate_verifications_total', { code: 'RATE_LIMITED' })).toBe(3);
    expect(delta('keygate_verifications_total', { code: 'NOT_FOUND' })).toBe(4);
    expect(delta('keygate_ratelimit_decisions_total', { outcome: 'passed' })).toBe(2);
    expect(delta('keygate_ratelimit_decisions_total', { outcome: 'denied' })).toBe(3);

    // Histogram buckets are cumulative and end at the count.
    const { buckets, count } = histogram(after, 'keygate_request_duration_seconds', 'keys.verifyKey');
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).toBe(count);
    expect(after.find((f) => f.name === 'keygate_request_duration_seconds')?.type).toBe('HISTOGRAM');

    // The process and event-loop metrics come along.
    expect(after.some((f) => f.name === 'keygate_nodejs_eventloop_lag_seconds')).toBe(true);

    // Analytics: the 5 verifications of the found key are recorded (unknown keys and refused
    // requests are not), written by the writer thread once flushed, none pending or lost.
    await h.keygate.services.recorder.flush();
    const flushed = await scrape(h);
    const records = (result: string): number => value(flushed, 'keygate_verification_records_total', { result }) - value(before, 'keygate_verification_records_total', { result }, 'zero');
    expect([records('written'), records('failed'), records('dropped')]).toEqual([5, 0, 0]);
    expect(value(flushed, 'keygate_verification_records_pending', {})).toBe(0);
    expect(value(flushed, 'keygate_analytics_writer_thread', {})).toBe(1);
  });

  it('answers 405 to other methods and counts its own scrapes', async () => {
    const before = await scrape(h);
    const post = await fetch(`${h.url}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    const after = await scrape(h);
    expect(value(after, 'keygate_requests_total', { procedure: 'metrics', status: '200' }) - value(before, 'keygate_requests_total', { procedure: 'metrics', status: '200' }, 'zero')).toBe(1);
  });

  it('logs one line per request with its id, procedure, status and duration, and nothing of the request', async () => {
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId });
    const res = await h.verify(key);
    const requestId = res.body.meta.requestId as string;
    // Request lines are written in batches (at most 50 ms later).
    const linesOf = () => h.logs().split('\n').filter((l) => l.includes(requestId)).map((l) => JSON.parse(l) as Record<string, unknown>);
    for (let waited = 0; linesOf().length === 0 && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = linesOf();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 30, msg: 'request', requestId, procedure: 'keys.verifyKey', status: 200 });
    expect(typeof lines[0]!.durationMs).toBe('number');
    expect(h.logs()).not.toContain(key);
    expect(h.logs()).not.toContain(h.adminKey);
  });
});

describe('METRICS=off', () => {
  it('serves no /metrics', async () => {
    const h = await startHarness({ metrics: false });
    try {
      const res = await fetch(`${h.url}/metrics`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.status).toBe(404);
      expect((await h.call('apis.createApi', { name: 'no-metrics' })).status).toBe(200);
    } finally {
      await h.stop();
    }
  });
});

describe('GET /metrics in the distributed mode', () => {
  it('times Redis commands and counts the record cache', async () => {
    const h = await startHarness({ redis: { url: inject('redisUrl'), commandTimeoutMs: 1_000, keyPrefix: `kg-test-metrics-${randomBytes(4).toString('hex')}:` } });
    try {
      const apiId = await h.createApi();
      const { key } = await h.createKey({ apiId, ratelimits: [{ name: 'burst', limit: 100, duration: 60_000, autoApply: true }] });
      for (let i = 0; i < 5; i++) expect((await h.verify(key)).body.data.code).toBe('VALID');
      const after = await scrape(h);
      // Limits are Lua scripts: every verification above ran one (batched calls count once each).
      expect(after.text).toMatch(/^keygate_redis_command_duration_seconds_count\{command="evalsha"\} [1-9]\d*$/m);
      // The error counter is there; an evalsha series appears only with its first error.
      expect(after.some((f) => f.name === 'keygate_redis_command_errors_total')).toBe(true);
      expect(value(after, 'keygate_redis_command_errors_total', { command: 'evalsha' }, 'zero')).toBe(0);
      // Repeated verifications of one key are answered from the record cache.
      expect(value(after, 'keygate_cache_hits_total', { cache: 'records' })).toBeGreaterThan(0);
      expect(value(after, 'keygate_cache_misses_total', { cache: 'records' })).toBeGreaterThan(0);
      expect(value(after, 'keygate_ratelimit_decisions_total', { outcome: 'passed' })).toBe(5);
      // The writer thread's own Redis connection stores the verification records.
      await h.keygate.services.recorder.flush();
      const flushed = await scrape(h);
      expect(value(flushed, 'keygate_verification_records_total', { result: 'written' })).toBe(5);
      expect(value(flushed, 'keygate_verification_records_total', { result: 'failed' })).toBe(0);
    } finally {
      await h.stop();
    }
  });
});
