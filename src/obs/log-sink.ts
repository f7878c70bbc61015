/**
 * Where every log line goes on its way out: one ordered stream of bytes for pino's lines and for
 * the per-request lines. Request lines gather in one string and go out together, encoded once, at
 * most FLUSH_MS later (or once FLUSH_BYTES are waiting): appending to a string is a pointer, where
 * writing each line into a buffer is a call into native code per request. pino's own lines
 * (startup, warnings, errors) go out at once, after whatever was gathered before them.
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
  /** Request lines not yet written (ASCII only, so its length is its size in bytes). */
  private gathered = '';
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly out: ByteDestination) {}

  /** stdout, written asynchronously (a slow reader never blocks the event loop). */
  static stdout(): LogSink {
    // pino's SonicBoom, in the mode that takes buffers as they are.
    return new LogSink(pino.destination({ fd: 1, sync: false, contentMode: 'buffer' } as Parameters<typeof pino.destination>[0]) as unknown as ByteDestination);
  }

  /** A line of ASCII text (the per-request line: ids, names and numbers keygate made). Gathered. */
  asciiLine(line: string): void {
    if (this.gathered.length + line.length > FLUSH_BYTES) this.send();
    this.gathered += line;
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
    if (this.gathered.length === 0) return;
    const bytes = Buffer.from(this.gathered, 'latin1');
    this.gathered = '';
    this.out.write(bytes);
  }
}
