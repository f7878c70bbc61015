/**
 * Verification records in blocks, as both stores keep them: one write per block of records (a
 * sorted-set member in Redis, an entry in LMDB) instead of one per record, so each verification
 * costs a share of one write. Blocks are cut from columns (verification-columns.ts) by count, time
 * span and size (LMDB keeps them below its overflow size; redis/ and lmdb/verifications.ts).
 *
 * A block holds records sorted by time (ties in append order) spanning less than BLOCK_SPAN_MS.
 * Blocks are ordered by their first record's time, then by a sequence number drawn when they are
 * written. Blocks written at about the same time (late records, several replicas) may overlap in
 * time, so reading merges them: records come back in (time, block sequence, position) order, which
 * within one millisecond is the order they were appended.
 *
 * The body holds the records' values and each distinct combination of dimensions once, in bytes
 * written by hand (verification-body.ts); bodies written before that are msgpack arrays of
 * columns, still read. In Redis a member is
 * put together by lua/verifications-append.lua: 16 hex digits of the sequence, 8 of `skip` (how
 * many of the block's first records were dropped by the retention bound), 8 of the record count,
 * then the body; Redis sorts members of one score by these bytes, so by sequence.
 */
import { unpack } from 'msgpackr';
import { verificationRecord, type VerificationRecord } from './records.js';
import { decodeBinaryBody, MARK, RECORD_MAX_BYTES, type DecodedBody } from './verification-body.js';
import { requestIdBytesOf, type Dims, type VerificationColumns } from './verification-columns.js';

/** The body of a block: the records at `indexes` (in time order) of the columns. */
export { encodeBody as encodeColumns } from './verification-body.js';

/** A Redis block never spans this long, so a read from time T starts with the blocks from T − span. */
export const BLOCK_SPAN_MS = 60_000;
export const HEADER_BYTES = 32;

/** A body written as msgpack: `dims` each as its JSON (written with columns) or as the tuple (written before). */
type MsgpackBody = [times: number[], requestIds: string[], dims: (string | Dims)[], dimIndex: number[], spent: number[], latencies: (number | null)[]];

/** How blocks are cut: at most this many records, spanning less than this, of about this size. */
export interface BlockLimits {
  readonly maxRecords: number;
  readonly spanMs: number;
  /** Estimated body bytes (a body may end up somewhat larger; RECORD_MAX_BYTES in verification-body.ts). */
  readonly maxBytes?: number;
}

/** Cuts the records, taken in `order` (time order), into blocks: each a run of record indexes. */
export function cutBlocks(c: VerificationColumns, order: Uint32Array, limits: BlockLimits): Uint32Array[] {
  const maxBytes = limits.maxBytes ?? Infinity;
  const blocks: Uint32Array[] = [];
  /** Per combination of dimensions, the block it was last counted in (+1). */
  const countedIn = new Uint32Array(c.dims.length);
  let from = 0;
  let bytes = 0;
  for (let at = 0; at < order.length; at++) {
    const i = order[at]!;
    const d = c.dimIndex[i]!;
    const adds = RECORD_MAX_BYTES + requestIdBytesOf(c, i) + (countedIn[d] === blocks.length + 1 ? 0 : c.dims[d]!.length + 5);
    if (at > from && (at - from === limits.maxRecords || c.times[i]! - c.times[order[from]!]! >= limits.spanMs || bytes + adds > maxBytes)) {
      blocks.push(order.subarray(from, at));
      from = at;
      bytes = RECORD_MAX_BYTES + requestIdBytesOf(c, i) + c.dims[d]!.length + 5;
    }
    else bytes += adds;
    countedIn[d] = blocks.length + 1;
  }
  if (from < order.length) blocks.push(order.subarray(from));
  return blocks;
}

export function decodeBody(bytes: Uint8Array): VerificationRecord[] {
  const { times, requestIds, dims: stored, dimIndex, spent, latencies } = bytes[0] === MARK ? decodeBinaryBody(bytes) : fromMsgpack(bytes);
  const dims = stored.map((d) => typeof d === 'string' ? JSON.parse(d) as Dims : d);
  return times.map((time, i) => {
    const [apiId, keyId, identityId, externalId, outcome, tags] = dims[dimIndex[i]!]!;
    return verificationRecord(time, requestIds[i]!, apiId, keyId, identityId, externalId, outcome, tags, spent[i]!, latencies[i]);
  });
}

function fromMsgpack(bytes: Uint8Array): Omit<DecodedBody, 'dims'> & { dims: (string | Dims)[] } {
  const [times, requestIds, dims, dimIndex, spent, latencies] = unpack(bytes) as MsgpackBody;
  return { times, requestIds, dims, dimIndex, spent, latencies };
}

export interface BlockHeader {
  readonly seq: number;
  readonly skip: number;
  readonly count: number;
}

export function readHeader(bytes: Uint8Array): BlockHeader {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, HEADER_BYTES).toString('latin1');
  return { seq: parseInt(text.slice(0, 16), 16), skip: parseInt(text.slice(16, 24), 16), count: parseInt(text.slice(24, 32), 16) };
}

/** A block as read back: its records still stored (those after `skip`), with its place in the order. */
export interface StoredBlock {
  readonly minTime: number;
  readonly seq: number;
  readonly records: readonly VerificationRecord[];
}

export function storedBlock(minTime: number, bytes: Uint8Array): StoredBlock {
  const { seq, skip } = readHeader(bytes);
  return { minTime, seq, records: decodeBody(bytes.subarray(HEADER_BYTES)).slice(skip) };
}

/**
 * A record's place in the merged order: time, block sequence, and its position counted from the
 * block's end (−1 for the last record). Retention drops records from a block's front only, so
 * this stays the same between two pages of a scan while the records before it go.
 */
export type Position = readonly [time: number, seq: number, fromEnd: number];

const before = (a: Position, b: Position): boolean => a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];

interface Cursor { readonly block: StoredBlock; index: number }

const positionOf = (c: Cursor): Position => [c.block.records[c.index]!.time, c.block.seq, c.index - c.block.records.length];

/**
 * Merges blocks given in (minTime, seq) order into records in position order: those with
 * fromMs ≤ time < toMs after `after`, at most `limit`. Returns them and the last one's position.
 */
export async function mergeBlocks(blocks: { next(): IteratorResult<StoredBlock> | Promise<IteratorResult<StoredBlock>> }, options: { fromMs?: number; toMs?: number; after?: Position; limit: number }):
  Promise<{ items: VerificationRecord[]; last: Position | null }> {
  const { fromMs = -Infinity, toMs = Infinity, after, limit } = options;
  const open: Cursor[] = [];
  const items: VerificationRecord[] = [];
  let last: Position | null = null;
  let next = await blocks.next();
  while (items.length < limit) {
    // A block not yet open may hold a record ordered before every open one: open it first.
    while (!next.done && (open.length === 0 || before([next.value.minTime, next.value.seq, -Infinity], positionOf(open[0]!)))) {
      if (next.value.records.length > 0) insert(open, { block: next.value, index: 0 });
      next = await blocks.next();
    }
    const top = open.shift();
    if (top === undefined) break;
    const position = positionOf(top);
    const record = top.block.records[top.index]!;
    if (++top.index < top.block.records.length) insert(open, top);
    if (record.time >= toMs) break;
    if (record.time < fromMs || (after !== undefined && !before(after, position))) continue;
    items.push(record);
    last = position;
  }
  return { items, last };
}

/** Keeps `open` sorted by each cursor's current position (a handful of overlapping blocks). */
function insert(open: Cursor[], cursor: Cursor): void {
  const position = positionOf(cursor);
  let i = open.length;
  while (i > 0 && before(position, positionOf(open[i - 1]!))) i--;
  open.splice(i, 0, cursor);
}
