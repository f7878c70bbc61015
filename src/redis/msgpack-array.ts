/**
 * A msgpack array written by hand, for the limiter's script arguments (sent many times a second):
 * its strings come already encoded (a counter's field is encoded once, with its check) and its
 * numbers are written straight into a reused buffer, where msgpackr.pack would first need the
 * whole array built as JavaScript values and then encode every string again.
 */

const encoder = new TextEncoder();

/** `text` as a msgpack string (UTF-8; a lone surrogate becomes U+FFFD, as Buffer.from does). */
export function packedString(text: string): Uint8Array {
  const body = encoder.encode(text);
  const n = body.length;
  const head = n < 32 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : 5;
  const out = new Uint8Array(head + n);
  if (head === 1) out[0] = 0xa0 | n;
  else if (head === 2) out.set([0xd9, n]);
  else if (head === 3) out.set([0xda, n >>> 8, n & 0xff]);
  else out.set([0xdb, n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
  out.set(body, head);
  return out;
}

/** A buffer grown past this by one large array is dropped at the next start rather than kept. */
const KEPT_BYTES = 256 * 1024;

export class MsgpackArrayWriter {
  private buffer = Buffer.allocUnsafeSlow(16 * 1024);
  private at = 0;

  /** Starts an array of `count` elements; what an earlier one wrote is overwritten. */
  start(count: number): void {
    if (this.buffer.length > KEPT_BYTES) this.buffer = Buffer.allocUnsafeSlow(16 * 1024);
    this.at = 0;
    this.room(5);
    if (count < 16) this.buffer[this.at++] = 0x90 | count;
    else if (count < 0x10000) {
      this.buffer[this.at] = 0xdc;
      this.at = this.buffer.writeUInt16BE(count, this.at + 1);
    } else {
      this.buffer[this.at] = 0xdd;
      this.at = this.buffer.writeUInt32BE(count, this.at + 1);
    }
  }

  /** A number: the smallest unsigned integer form for 0 … 2³²−1, else a 64-bit float (exact for any number). */
  number(n: number): void {
    this.room(9);
    const { buffer } = this;
    if (n >= 0 && n <= 0xffffffff && Number.isInteger(n)) {
      if (n < 0x80) buffer[this.at++] = n;
      else if (n < 0x100) {
        buffer[this.at++] = 0xcc;
        buffer[this.at++] = n;
      } else if (n < 0x10000) {
        buffer[this.at] = 0xcd;
        this.at = buffer.writeUInt16BE(n, this.at + 1);
      } else {
        buffer[this.at] = 0xce;
        this.at = buffer.writeUInt32BE(n, this.at + 1);
      }
      return;
    }
    buffer[this.at] = 0xcb;
    this.at = buffer.writeDoubleBE(n, this.at + 1);
  }

  /** An element already encoded (packedString). */
  packed(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buffer.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** A copy of the array: the caller may hold it (a queued command) while the buffer is reused. */
  take(): Buffer {
    return Buffer.from(this.buffer.subarray(0, this.at));
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}
