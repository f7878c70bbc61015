/**
 * The log sink (src/obs/log-sink.ts): per-request lines gathered and written as bytes, pino's
 * lines at once, all in the order they were logged, and never a line cut between two writes; a
 * destination nobody reads holds a bounded amount, and what it dropped is counted in a warning.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, requestLogLine } from '../../src/obs/log.js';
import { LogSink } from '../../src/obs/log-sink.js';

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

  it("a request line's time is when the request was answered, not when the line was written out", async () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    const line = requestLogLine(log)!;
    const answered = Date.now() - 30_000;
    line('req_early', 'keys.verifyKey', 200, 1, performance.now() - 30_000);
    line('req_now', 'keys.verifyKey', 200, 1);
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    const [early, now] = out.text().trim().split('\n').map((l) => JSON.parse(l) as { time: number });
    expect(Math.abs(early!.time - answered)).toBeLessThanOrEqual(5);
    expect(Math.abs(now!.time - Date.now())).toBeLessThanOrEqual(100);
    expect(Number.isInteger(early!.time)).toBe(true);
  });

  it('below info there is no request line at all', () => {
    expect(requestLogLine(createLogger('warn', capture().stream))).toBeNull();
  });

  it('a stdout nobody reads: at most the cap is held, the rest dropped whole and counted in a warning once it is read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keygate-logsink-'));
    const fifo = join(dir, 'stdout');
    const file = join(dir, 'out.log');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The log collector: reads the pipe into a file, stopped (SIGSTOP) while the lines come.
    const reader = spawn('sh', ['-c', 'exec cat "$0" > "$1"', fifo, file], { stdio: 'ignore' });
    const exited = new Promise((resolve) => reader.on('exit', resolve));
    try {
      let fd = -1;
      for (let i = 0; i < 100 && fd < 0; i++) {
        try { fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK); } catch { await new Promise((resolve) => setTimeout(resolve, 20)); }
      }
      process.kill(reader.pid!, 'SIGSTOP');
      const cap = 256 * 1024;
      const sink = LogSink.toFd(fd, cap);
      const line = (n: number) => Buffer.from(`${JSON.stringify({ level: 30, n, msg: 'x'.repeat(60) })}\n`);
      let produced = 0;
      for (let n = 0; n < 40_000; n++) {
        const bytes = line(n);
        sink.bytesLine(bytes);
        produced += bytes.length;
        // Let the writes go out (or find the pipe full) as a serving process would between requests.
        if (n % 2_000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(reader.pid!, 'SIGCONT');
      // What was held goes out first (flush waits until the reader took it); the next line then
      // finds room, and the warning goes with it.
      await new Promise<void>((resolve) => sink.flush(() => resolve()));
      const last = line(40_000);
      sink.bytesLine(last);
      produced += last.length;
      await new Promise<void>((resolve) => sink.flush(() => resolve()));
      closeSync(fd);
      await exited;
      const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { n?: number; droppedBytes?: number; level: number });
      const kept = lines.filter((l) => l.n !== undefined);
      const warnings = lines.filter((l) => l.droppedBytes !== undefined);
      // Whole lines, in order, the last one among them; what is missing is exactly what the warnings count.
      const ns = kept.map((l) => l.n!);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
      expect(ns.at(-1)).toBe(40_000);
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.every((w) => w.level === 40)).toBe(true);
      const dropped = warnings.reduce((sum, w) => sum + w.droppedBytes!, 0);
      expect(kept.reduce((sum, l) => sum + line(l.n!).length, 0) + dropped).toBe(produced);
      // Held at most the cap beyond what the pipe itself buffers (64 KiB on Linux) and one gathered chunk.
      expect(produced - dropped).toBeLessThanOrEqual(cap + 64 * 1024 + 64 * 1024 + last.length);
    } finally {
      reader.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
