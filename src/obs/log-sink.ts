/**
 * Where every log line goes on its way out: one ordered stream of bytes for pino's lines and for
 * the per-request lines. Request lines are held as values (request-lines.ts) and formatted into
 * a byte buffer that goes out at most FLUSH_MS after the first of them (or once FLUSH_BYTES are
 * waiting); pino's own lines (startup, warnings, errors) go out at once, after whatever was held
 * or gathered before them.
 *
 * Bytes, not text, reach the writer: a SonicBoom in text mode measures, concatenates and encodes
 * a large string several times over, which costs more than formatting the per-request lines.
 */
import { pino } from 'pino';
import { RequestLines, type HeldLinesSink } from './request-lines.js';

const FLUSH_MS = 50;
const FLUSH_BYTES = 64 * 1024;
/**
 * Most bytes of log lines held for a stdout that is not being read (a stalled log collector):
 * beyond it lines are dropped and counted, so memory stays bounded; a warning line says how many
 * bytes went once stdout takes lines again.
 */
export const STDOUT_HELD_MAX_BYTES = 16 * 1024 * 1024;
/** Longest flush() waits for a file descriptor's reader to take what is held (a stalled one must not hold up an exit). */
const FLUSH_WAIT_MAX_MS = 5_000;

/** Anything that takes chunks of bytes in order: stdout's SonicBoom, pino-pretty, or a test's stream. */
export interface ByteDestination {
  write(chunk: Buffer): unknown;
  flush?(cb: (err?: Error | null) => void): void;
  flushSync?(): void;
}

export class LogSink implements HeldLinesSink {
  /** Per-request lines held as values until the next send (request-lines.ts). */
  private readonly requestLines: RequestLines[] = [];
  private chunk = Buffer.allocUnsafe(FLUSH_BYTES);
  private at = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Bytes of lines the destination dropped since the last warning about it. */
  private dropped = 0;
  /** While the warning about them is written, and whether it was dropped too. */
  private warning = false;
  private warningDropped = false;
  /**
   * For a file descriptor: bytes handed to it, and bytes it wrote or dropped, so flush() can wait
   * until nothing is held (undefined: the destination is not followed, flush() uses its own).
   */
  private written: { handed: number; settled: number; waiting: (() => void)[] } | undefined;

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
    sink.written = { handed: 0, settled: 0, waiting: [] };
    boom.on('write', (bytes: number) => sink.took(bytes));
    boom.on('drop', (data: Uint8Array) => {
      sink.lost(data.length);
      sink.took(data.length);
    });
    return sink;
  }

  /** Hands `chunk` to the destination (which may hold it until written). */
  private give(chunk: Buffer): void {
    if (this.written) this.written.handed += chunk.length;
    this.out.write(chunk);
  }

  /** The destination wrote or dropped `bytes`; flushes waiting for that are done once nothing is held. */
  private took(bytes: number): void {
    const w = this.written!;
    w.settled += bytes;
    if (w.settled < w.handed || w.waiting.length === 0) return;
    const waiting = w.waiting;
    w.waiting = [];
    for (const done of waiting) done();
  }

  /** The destination dropped `bytes` (it held too much already). */
  private lost(bytes: number): void {
    if (this.warning) this.warningDropped = true;
    else this.dropped += bytes;
  }

  /** A holder of per-request lines (log.ts): they go out with the next send, before anything after them. */
  heldLines(): RequestLines {
    const lines = new RequestLines(this);
    this.requestLines.push(lines);
    return lines;
  }

  /**
   * A line already in bytes, copied into the gathered chunk, after the held request lines: no
   * string is made for it. `line` may be reused by the caller once this returns.
   */
  bytesLine(line: Uint8Array): void {
    this.formatHeld();
    this.gather(line);
    this.wake();
  }

  /** Whole lines' bytes into the gathered chunk (sending it first when they do not fit). */
  gather(bytes: Uint8Array): void {
    if (this.at + bytes.length > this.chunk.length) this.sendGathered();
    if (bytes.length > this.chunk.length) {
      this.give(Buffer.from(bytes));
      return;
    }
    this.chunk.set(bytes, this.at);
    this.at += bytes.length;
  }

  wake(): void {
    // Not unref'd: the timer keeps the process alive until the lines are out, so a graceful exit loses none.
    if (this.timer === null) this.timer = setTimeout(() => this.send(), FLUSH_MS);
  }

  sendNow(): void {
    this.send();
  }

  private formatHeld(): void {
    for (const lines of this.requestLines) if (lines.held > 0) lines.formatInto(this);
  }

  /** pino's lines (any text): written at once, after what was gathered. */
  write(text: string): boolean {
    this.send();
    this.give(Buffer.from(text, 'utf8'));
    return true;
  }

  /**
   * Writes what is gathered; `cb` once the destination has it out (for a file descriptor: once
   * its reader took all that was held, or after FLUSH_WAIT_MAX_MS). Shutdown exits in `cb`: a
   * write still under way then (a reader lagging behind) would be lost.
   */
  flush(cb: (err?: Error | null) => void = () => {}): void {
    this.send();
    const w = this.written;
    if (w === undefined) {
      if (this.out.flush) this.out.flush(cb);
      else cb();
      return;
    }
    if (w.settled >= w.handed) {
      cb();
      return;
    }
    let called = false;
    const done = (): void => {
      if (called) return;
      called = true;
      clearTimeout(timer);
      cb();
    };
    const timer = setTimeout(done, FLUSH_WAIT_MAX_MS);
    w.waiting.push(done);
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
    this.formatHeld();
    this.sendGathered();
  }

  private sendGathered(): void {
    if (this.at === 0) return;
    if (this.dropped > 0) this.warnDropped();
    // The destination may hold the bytes until written: the next lines go to a new buffer.
    const full = this.chunk.subarray(0, this.at);
    this.chunk = Buffer.allocUnsafe(FLUSH_BYTES);
    this.at = 0;
    this.give(full);
  }

  /** A line (pino's shape) saying how many bytes were dropped; if it is dropped too, the count waits for the next one. */
  private warnDropped(): void {
    const dropped = this.dropped;
    this.dropped = 0;
    this.warningDropped = false;
    this.warning = true;
    try {
      this.give(Buffer.from(`${JSON.stringify({ level: 40, time: Date.now(), service: 'keygate', droppedBytes: dropped, msg: 'log lines dropped: stdout was not read fast enough' })}\n`));
    } finally {
      this.warning = false;
    }
    if (this.warningDropped) this.dropped += dropped;
  }
}
