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
/**
 * Most bytes of log lines held for a stdout that is not being read (a stalled log collector):
 * beyond it lines are dropped and counted, so memory stays bounded; a warning line says how many
 * bytes went once stdout takes lines again.
 */
export const STDOUT_HELD_MAX_BYTES = 16 * 1024 * 1024;

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
  /** Bytes of lines the destination dropped since the last warning about it. */
  private dropped = 0;
  /** While the warning about them is written, and whether it was dropped too. */
  private warning = false;
  private warningDropped = false;

  constructor(private readonly out: ByteDestination) {}

  /** stdout, written asynchronously (a slow reader never blocks the event loop). */
  static stdout(): LogSink {
    return LogSink.toFd(1, STDOUT_HELD_MAX_BYTES);
  }

  /** `fd`, written asynchronously, holding at most `heldMaxBytes` that it could not write yet. */
  static toFd(fd: number, heldMaxBytes: number): LogSink {
    // pino's SonicBoom, in the mode that takes buffers as they are.
    const boom = pino.destination({ fd, sync: false, contentMode: 'buffer', maxLength: heldMaxBytes } as Parameters<typeof pino.destination>[0]);
    const sink = new LogSink(boom as unknown as ByteDestination);
    boom.on('drop', (data: Uint8Array) => sink.lost(data.length));
    return sink;
  }

  /** The destination dropped `bytes` (it held too much already). */
  private lost(bytes: number): void {
    if (this.warning) this.warningDropped = true;
    else this.dropped += bytes;
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

  /**
   * Hands what is gathered to the destination; `cb` once the destination took it (stdout's
   * SonicBoom may still be writing it then: pino writes what is left when the process exits).
   */
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
    if (this.dropped > 0) this.warnDropped();
    // The destination may hold the bytes until written: the next lines go to a new buffer.
    const full = this.chunk.subarray(0, this.at);
    this.chunk = Buffer.allocUnsafe(FLUSH_BYTES);
    this.at = 0;
    this.out.write(full);
  }

  /** A line (pino's shape) saying how many bytes were dropped; if it is dropped too, the count waits for the next one. */
  private warnDropped(): void {
    const dropped = this.dropped;
    this.dropped = 0;
    this.warningDropped = false;
    this.warning = true;
    try {
      this.out.write(Buffer.from(`${JSON.stringify({ level: 40, time: Date.now(), service: 'keygate', droppedBytes: dropped, msg: 'log lines dropped: stdout was not read fast enough' })}\n`));
    } finally {
      this.warning = false;
    }
    if (this.warningDropped) this.dropped += dropped;
  }
}
