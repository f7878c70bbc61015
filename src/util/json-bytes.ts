/**
 * Answers written as bytes at the moment they are sent. An answer made of many string pieces costs
 * V8 a walk over all of them when uWS reads it (the string is flattened, then measured and copied
 * as UTF-8); written into one reused buffer instead, its unchanging parts are copied as bytes
 * encoded once and its numbers are written digit by digit. uWS copies what `end` is given before
 * `end` returns, so the buffer is free again for the next answer.
 */

/** A value that writes its own JSON as UTF-8 bytes; it still answers toJSON() for everyone else. */
export const JSON_BYTES = Symbol('jsonBytes');

export interface HasJsonBytes {
  [JSON_BYTES](out: ByteWriter): void;
}

export const hasJsonBytes = (value: unknown): value is HasJsonBytes =>
  typeof value === 'object' && value !== null && JSON_BYTES in value;

const encoder = new TextEncoder();

/**
 * Text encoded once, for the constant parts of answers, kept as long as the process: a view of
 * Node's shared buffer pool. Not for what a cache holds and lets go (a view pins its pool chunk;
 * see answerParts in keys/verify-answer.ts).
 */
export const utf8 = (text: string): Uint8Array => Buffer.from(text);

/** A buffer grown past this by one large answer is dropped at the next reset rather than kept. */
const KEPT_BYTES = 64 * 1024;
const INITIAL_BYTES = 16 * 1024;

/** Lengths below this get a remembered view (written()): verifyKey's answers and log lines. */
const VIEWED_LENGTHS = 2048;

export class ByteWriter {
  private buffer = new Uint8Array(INITIAL_BYTES);
  private length = 0;
  /**
   * written()'s views of the buffer by length, made once: a typed array is one of the larger
   * objects of a request, and every answer and log line would otherwise allocate one.
   */
  private views: (Uint8Array<ArrayBuffer> | undefined)[] = [];

  /** Starts a new answer; what an earlier one wrote is overwritten. */
  reset(): this {
    this.length = 0;
    if (this.buffer.length > KEPT_BYTES) this.replace(new Uint8Array(INITIAL_BYTES));
    return this;
  }

  /** Bytes written since the last reset. */
  get size(): number {
    return this.length;
  }

  /** The answer so far: a view of the shared buffer, valid until the next reset. */
  written(): Uint8Array {
    const { length } = this;
    if (length >= VIEWED_LENGTHS) return this.buffer.subarray(0, length);
    return this.views[length] ??= this.buffer.subarray(0, length);
  }

  private replace(buffer: Uint8Array<ArrayBuffer>): void {
    this.buffer = buffer;
    this.views = [];
  }

  byte(code: number): void {
    this.room(1);
    this.buffer[this.length++] = code;
  }

  bytes(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }

  /** `bytes` from index `from` on. */
  bytesFrom(bytes: Uint8Array, from: number): void {
    this.bytes(bytes.subarray(from));
  }

  /** Text the caller knows is ASCII with nothing JSON escapes (ids, fixed words); else use `text`. */
  ascii(text: string): void {
    this.room(text.length);
    const { buffer } = this;
    let at = this.length;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Any text, already in its JSON form (quoted and escaped), as UTF-8. */
  text(json: string): void {
    this.room(json.length * 3);
    this.length += encoder.encodeInto(json, this.buffer.subarray(this.length)).written;
  }

  /** A number as JSON.stringify writes it: integer arithmetic for safe integers, V8's text otherwise. */
  number(n: number): void {
    if (!Number.isSafeInteger(n)) {
      this.ascii(JSON.stringify(n));
      return;
    }
    this.room(17);
    if (n < 0) {
      this.buffer[this.length++] = 45; // '-'
      n = -n;
    }
    if (n < 2 ** 31) {
      this.digits(n, 0);
      return;
    }
    // Two int32 halves: the high part's quotient is corrected where the division rounded.
    let high = Math.floor(n / 1e8);
    let low = n - high * 1e8;
    if (low < 0) { high--; low += 1e8; } else if (low >= 1e8) { high++; low -= 1e8; }
    this.digits(high, 0);
    this.digits(low, 8);
  }

  /** Milliseconds rounded to the microsecond, as JSON writes that number: `12`, `0.25`, `3.406`. */
  milliseconds(ms: number): void {
    const us = Math.round(ms * 1e3);
    if (!(us >= 0 && Number.isSafeInteger(us))) {
      this.number(us / 1e3);
      return;
    }
    const whole = Math.floor(us / 1e3);
    let fraction = us - whole * 1e3;
    this.number(whole);
    if (fraction === 0) return;
    let width = 3;
    while (fraction % 10 === 0) {
      fraction /= 10;
      width--;
    }
    this.byte(46); // '.'
    this.room(width);
    this.digits(fraction, width);
  }

  /** A non-negative int32's digits, left-padded with zeros to `width`. */
  private digits(n: number, width: number): void {
    let count = 1;
    for (let p = 10; p <= n && count < 10; p *= 10) count++;
    if (count < width) count = width;
    const { buffer } = this;
    let at = this.length + count;
    this.length = at;
    do {
      const q = (n / 10) | 0;
      buffer[--at] = 48 + n - q * 10;
      n = q;
    } while (--count > 0);
  }

  private room(more: number): void {
    const needed = this.length + more;
    if (needed <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(needed, this.buffer.length * 2));
    grown.set(this.buffer.subarray(0, this.length));
    this.replace(grown);
  }
}
