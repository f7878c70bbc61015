/**
 * Where every log line goes on its way out: one ordered stream of bytes for pino's lines and for
 * the per-request lines. Request lines gather in a byte buffer and go out together at most
 * FLUSH_MS later (or once FLUSH_BYTES are waiting); pino's own lines (startup, warnings, errors)
 * go out at once, after whatever was gathered before them.
 *
 * Bytes, not text, reach the writer: a SonicBoom in text mode measures, concatenates and encodes
 * a large string several times over, which costs more than formatting the per-request lines.
 */
import { pino } from 'pino';

const FLUSH_MS = 50;
const FLUSH_BYTES = 64 * 1024;

const DURATION = Buffer.from(',"durationMs":');
const TAIL = Buffer.from(',"msg":"request"}\n');
/** Room for the line's numbers and fixed tail: a time, a status and a duration, with margin. */
const REQUEST_LINE_NUMBERS = 96;

/** `n` (a non-negative safe integer) in decimal at `at`; returns the index after it. */
function writeInteger(out: Buffer, at: number, n: number): number {
  if (n < 10) {
    out[at] = 48 + n;
    return at + 1;
  }
  let digits = 1;
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  let rest = n;
  for (let i = at + digits - 1; i >= at; i--) {
    out[i] = 48 + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}

/** Milliseconds rounded to the microsecond, as JSON writes that number: `12`, `0.25`, `3.406`. */
function writeMilliseconds(out: Buffer, at: number, ms: number): number {
  const us = Math.round(ms * 1e3);
  const whole = Math.floor(us / 1e3);
  let fraction = us - whole * 1e3;
  at = writeInteger(out, at, whole);
  if (fraction === 0) return at;
  out[at++] = 46; // '.'
  let digits = 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  for (let i = at + digits - 1; i >= at; i--) {
    out[i] = 48 + (fraction % 10);
    fraction = Math.floor(fraction / 10);
  }
  return at + digits;
}

/** Anything that takes chunks of bytes in order: stdout's SonicBoom, pino-pretty, or a test's stream. */
export interface ByteDestination {
  write(chunk: Buffer): unknown;
  flush?(cb: (err?: Error | null) => void): void;
  flushSync?(): void;
}

export class LogSink {
  private chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  private at = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly out: ByteDestination) {}

  /** stdout, written asynchronously (a slow reader never blocks the event loop). */
  static stdout(): LogSink {
    // pino's SonicBoom, in the mode that takes buffers as they are.
    return new LogSink(pino.destination({ fd: 1, sync: false, contentMode: 'buffer' } as Parameters<typeof pino.destination>[0]) as unknown as ByteDestination);
  }

  /**
   * The per-request line (log.ts), written as bytes straight into the gathered chunk: no string is
   * built per request. `head` holds everything up to the time, `middle` what follows the request
   * id up to the status (the procedure's name included), both encoded once by the caller.
   */
  requestLine(head: Uint8Array, timeMs: number, idHead: Uint8Array, requestId: string, middle: Uint8Array, status: number, durationMs: number): void {
    const room = head.length + idHead.length + middle.length + requestId.length + REQUEST_LINE_NUMBERS;
    if (this.at + room > this.chunk.length) this.send();
    const out = this.chunk;
    out.set(head, this.at);
    let at = writeInteger(out, this.at + head.length, timeMs);
    out.set(idHead, at);
    at += idHead.length;
    // Request ids are keygate's own, ASCII.
    for (let i = 0; i < requestId.length; i++) out[at++] = requestId.charCodeAt(i);
    out.set(middle, at);
    at = writeInteger(out, at + middle.length, status);
    out.set(DURATION, at);
    at = writeMilliseconds(out, at + DURATION.length, durationMs);
    out.set(TAIL, at);
    this.at = at + TAIL.length;
    // Not unref'd: the timer keeps the process alive until the lines are out, so a graceful exit loses none.
    if (this.timer === null) this.timer = setTimeout(() => this.send(), FLUSH_MS);
  }

  /** pino's lines (any text): written at once, after what was gathered. */
  write(text: string): boolean {
    this.send();
    this.out.write(Buffer.from(text, 'utf8'));
    return true;
  }

  /** Writes what is gathered; `cb` once the destination has it out. */
  flush(cb: (err?: Error | null) => void = () => {}): void {
    this.send();
    if (this.out.flush) this.out.flush(cb);
    else cb();
  }

  flushSync(): void {
    this.send();
    this.out.flushSync?.();
  }

  private send(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.at === 0) return;
    // The destination may hold the bytes until written: the next lines go to a new buffer.
    const full = this.chunk.subarray(0, this.at);
    this.chunk = Buffer.allocUnsafe(FLUSH_BYTES);
    this.at = 0;
    this.out.write(full);
  }
}
