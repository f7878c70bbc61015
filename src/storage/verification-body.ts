/**
 * A block's body in bytes written by hand: encoding blocks is a large share of the analytics
 * writer's work, and msgpack paid a type dispatch for each of a record's values and made a string
 * of each request id. Blocks written before this (msgpack arrays) still decode:
 * verification-blocks.ts tells them apart by the first byte, MARK, which msgpack never writes.
 *
 * Layout: MARK, VERSION, varint record count, varint count of combinations of dimensions, each
 * as varint byte length + its JSON in UTF-8, the first record's time (float64), then per record:
 * a flags byte (how the time and credits are stored; whether a latency follows), the time (a
 * varint offset from the first, or a float64), varint index into the combinations, varint
 * request-id byte length + its UTF-8, credits (none when 0, a varint when a whole number, else a
 * float64), the latency (float64).
 * Numbers little-endian; varints 7 bits a byte, low first.
 */
import { requestIdBytesOf, type VerificationColumns } from './verification-columns.js';

/** 0xc1 is the one byte msgpack leaves unused: no msgpack body begins with it. */
export const MARK = 0xc1;
const VERSION = 1;

const SPENT_NONE = 0;
const SPENT_WHOLE = 1;
const SPENT_FLOAT = 2;
const HAS_LATENCY = 4;
/** The time as a float64 of its own instead of an offset (not a whole number of ms after the first). */
const TIME_FLOAT = 8;

/** Most bytes a record adds besides its request id: flags, time, index, id length, credits, latency. */
export const RECORD_MAX_BYTES = 1 + 8 + 5 + 5 + 8 + 8;

/** Per combination of dimensions of the columns being encoded, its index in the body + 1 (0: not in it); reset after each body. */
let local = new Uint32Array(64);

/** The body of the records at `indexes` (in time order) of `c`. */
export function encodeBody(c: VerificationColumns, indexes: Uint32Array): Buffer {
  const n = indexes.length;
  if (local.length < c.dims.length) local = new Uint32Array(Math.max(c.dims.length, local.length * 2));
  const used: number[] = [];
  let bound = 2 + 5 + 5 + 8;
  for (let k = 0; k < n; k++) {
    const i = indexes[k]!;
    const d = c.dimIndex[i]!;
    if (local[d] === 0) {
      local[d] = used.push(d);
      bound += 5 + Buffer.byteLength(c.dims[d]!);
    }
    bound += RECORD_MAX_BYTES + requestIdBytesOf(c, i);
  }
  const out = Buffer.allocUnsafe(bound);
  out[0] = MARK;
  out[1] = VERSION;
  let at = varint(out, 2, n);
  at = varint(out, at, used.length);
  for (const d of used) {
    const json = c.dims[d]!;
    const bytes = Buffer.byteLength(json);
    at = varint(out, at, bytes);
    at += out.write(json, at, bytes, 'utf8');
  }
  const base = n > 0 ? c.times[indexes[0]!]! : 0;
  at = float(out, at, base);
  const ids = c.requestIdBytes;
  const ends = c.requestIdEnds;
  for (let k = 0; k < n; k++) {
    const i = indexes[k]!;
    const offset = c.times[i]! - base;
    const wholeOffset = Number.isSafeInteger(offset) && offset >= 0;
    const spent = c.spent[i]!;
    const latency = c.latencies[i]!;
    const spentKind = spent === 0 ? SPENT_NONE : Number.isSafeInteger(spent) && spent > 0 ? SPENT_WHOLE : SPENT_FLOAT;
    out[at++] = spentKind | (Number.isNaN(latency) ? 0 : HAS_LATENCY) | (wholeOffset ? 0 : TIME_FLOAT);
    at = wholeOffset ? varint(out, at, offset) : float(out, at, c.times[i]!);
    at = varint(out, at, local[c.dimIndex[i]!]! - 1);
    const idStart = i === 0 ? 0 : ends[i - 1]!;
    const idEnd = ends[i]!;
    at = varint(out, at, idEnd - idStart);
    // A loop, not Buffer#copy: ids are a few dozen bytes, and a native call per record costs more.
    for (let b = idStart; b < idEnd; b++) out[at++] = ids[b]!;
    if (spentKind === SPENT_WHOLE) at = varint(out, at, spent);
    else if (spentKind === SPENT_FLOAT) at = float(out, at, spent);
    if (!Number.isNaN(latency)) at = float(out, at, latency);
  }
  for (const d of used) local[d] = 0;
  return out.subarray(0, at);
}

/** A decoded body: the records' values in order, each combination of dimensions as its JSON. */
export interface DecodedBody {
  readonly times: number[];
  readonly requestIds: string[];
  readonly dims: string[];
  readonly dimIndex: number[];
  readonly spent: number[];
  readonly latencies: (number | null)[];
}

export function decodeBinaryBody(bytes: Uint8Array): DecodedBody {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] !== MARK || buf[1] !== VERSION) throw new Error(`not a verification body of version ${VERSION}`);
  const r = { at: 2 };
  const n = readVarint(buf, r);
  const dims = Array.from({ length: readVarint(buf, r) }, () => readText(buf, r));
  const base = readFloat(buf, r);
  const body: DecodedBody = { times: [], requestIds: [], dims, dimIndex: [], spent: [], latencies: [] };
  for (let k = 0; k < n; k++) {
    const flags = buf[r.at++]!;
    body.times.push(flags & TIME_FLOAT ? readFloat(buf, r) : base + readVarint(buf, r));
    body.dimIndex.push(readVarint(buf, r));
    body.requestIds.push(readText(buf, r));
    const spentKind = flags & 3;
    body.spent.push(spentKind === SPENT_WHOLE ? readVarint(buf, r) : spentKind === SPENT_FLOAT ? readFloat(buf, r) : 0);
    body.latencies.push(flags & HAS_LATENCY ? readFloat(buf, r) : null);
  }
  if (r.at !== buf.length) throw new Error('a verification body has bytes after its last record');
  return body;
}

/** Writes a whole number from 0 to 2^53 − 1. */
function varint(out: Buffer, at: number, value: number): number {
  while (value >= 0x80) {
    out[at++] = (value % 0x80) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[at++] = value;
  return at;
}

function readVarint(buf: Buffer, r: { at: number }): number {
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = buf[r.at++];
    if (byte === undefined) throw new Error('a verification body ends inside a number');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
}

/** A varint byte length, then that many bytes of UTF-8. */
function readText(buf: Buffer, r: { at: number }): string {
  const length = readVarint(buf, r);
  if (r.at + length > buf.length) throw new Error('a verification body ends inside a text');
  r.at += length;
  return buf.toString('utf8', r.at - length, r.at);
}

const float = (out: Buffer, at: number, value: number): number => out.writeDoubleLE(value, at);

/** Throws (RangeError) when the body ends inside the number. */
function readFloat(buf: Buffer, r: { at: number }): number {
  const value = buf.readDoubleLE(r.at);
  r.at += 8;
  return value;
}
