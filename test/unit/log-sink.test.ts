/**
 * The log sink (src/obs/log-sink.ts): per-request lines gathered and written as bytes, pino's
 * lines at once, all in the order they were logged, and never a line cut between two writes.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogLine } from '../../src/obs/log.js';

function capture(): { stream: Writable; chunks: Buffer[]; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({ write(chunk: Buffer, _e, done) { chunks.push(Buffer.from(chunk)); done(); } });
  return { stream, chunks, text: () => Buffer.concat(chunks).toString('utf8') };
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('log sink', () => {
  it('request lines come out within ~50 ms without a flush, in order with pino lines, UTF-8 kept', async () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    const line = requestLogLine(log)!;
    log.info('first');
    line('req_1', 'keys.verifyKey', 200, 0.25);
    line('req_2', 'keys.verifyKey', 404, 1);
    log.warn({ name: 'Zoë ✓' }, 'then');
    line('req_3', 'apis.createApi', 200, 3.5);
    await settle(120);
    const lines = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.requestId ?? l.msg)).toEqual(['first', 'req_1', 'req_2', 'then', 'req_3']);
    expect(lines[1]).toMatchObject({ level: 30, service: 'keygate', procedure: 'keys.verifyKey', status: 200, durationMs: 0.25, msg: 'request' });
    expect(lines[3]).toMatchObject({ level: 40, name: 'Zoë ✓' });
  });

  it('a flood of request lines is written in chunks that each end on a whole line', async () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    const line = requestLogLine(log)!;
    for (let i = 0; i < 5_000; i++) line(`req_${i}`, 'keys.verifyKey', 200, i / 8);
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    expect(out.chunks.length).toBeGreaterThan(5);
    for (const chunk of out.chunks) expect(chunk.at(-1)).toBe(0x0a);
    const ids = out.text().trim().split('\n').map((l) => (JSON.parse(l) as { requestId: string }).requestId);
    expect(ids).toEqual(Array.from({ length: 5_000 }, (_, i) => `req_${i}`));
  });

  it('a request line writes its duration as JSON would, rounded to the microsecond', async () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    const line = requestLogLine(log)!;
    const durations = [0, 0.0004, 0.0005, 0.001, 0.25, 1, 3.5, 12.3456, 10.1, 1234.5, 86_400_000.125, 0.1 + 0.2];
    for (const [i, ms] of durations.entries()) line(`req_${i}`, 'keys.verifyKey', 200 + i, ms);
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    const lines = out.text().trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { durationMs: number }).durationMs)).toEqual(durations.map((ms) => Math.round(ms * 1e3) / 1e3));
    // The same text JSON.stringify gives that number, and the status and time as written.
    for (const [i, l] of lines.entries()) {
      const parsed = JSON.parse(l) as { durationMs: number; status: number; time: number };
      expect(l).toContain(`"durationMs":${JSON.stringify(parsed.durationMs)},`);
      expect(parsed.status).toBe(200 + i);
      expect(Math.abs(parsed.time - Date.now())).toBeLessThan(60_000);
    }
  });

  it('below info there is no request line at all', () => {
    expect(requestLogLine(createLogger('warn', capture().stream))).toBeNull();
  });
});
