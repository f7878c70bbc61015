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
   * A line already in bytes (the per-request line, log.ts), copied into the gathered chunk: no
   * string is made for it. `line` may be reused by the caller once this returns.
   */
  bytesLine(line: Uint8Array): void {
    if (this.at + line.length > this.chunk.length) this.send();
    if (line.length > this.chunk.length) {
      this.out.write(Buffer.from(line));
      return;
    }
    this.chunk.set(line, this.at);
    this.at += line.length;
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
