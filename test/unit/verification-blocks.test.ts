/**
 * Blocks of verification records (src/storage/verification-blocks.ts): cutting, the stored bytes,
 * and the merge that reads overlapping blocks back in one order.
 */
import { pack } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import type { VerificationRecord } from '../../src/storage/records.js';
import {
  BLOCK_SPAN_MS, cutBlocks, decodeBody, encodeColumns, mergeBlocks, readHeader, storedBlock, type BlockLimits, type Position, type StoredBlock,
} from '../../src/storage/verification-blocks.js';
import { ColumnsBuilder, columnsOf, timeOrder } from '../../src/storage/verification-columns.js';

const hex = (value: number, digits: number): string => value.toString(16).padStart(digits, '0');
/** A member as lua/verifications-append.lua writes it: sequence, skip, count, body. */
const blockBytes = (seq: number, skip: number, body: Buffer, count: number): Buffer =>
  Buffer.concat([Buffer.from(`${hex(seq, 16)}${hex(skip, 8)}${hex(count, 8)}`, 'latin1'), body]);

/** The records cut into blocks as a store cuts them: time order, then the limits. */
function intoBlocks(records: readonly VerificationRecord[], limits: BlockLimits): VerificationRecord[][] {
  const c = columnsOf(records);
  return cutBlocks(c, timeOrder(c), limits).map((indexes) => Array.from(indexes, (i) => records[i]!));
}

/** The body of records given in time order. */
function encodeBody(records: readonly VerificationRecord[]): Buffer {
  const c = columnsOf(records);
  return encodeColumns(c, timeOrder(c));
}

let n = 0;
const record = (time: number, extra: Partial<VerificationRecord> = {}): VerificationRecord =>
  ({ time, requestId: `req_${++n}`, apiId: 'api_1', keyId: `key_${n % 3}`, outcome: 'VALID', spentCredits: 0, ...extra });

function* iterate(blocks: StoredBlock[]): Generator<StoredBlock> {
  yield* [...blocks].sort((a, b) => a.minTime - b.minTime || a.seq - b.seq);
}

describe('verification blocks', () => {
  it('a batch is sorted by time (ties keep their order) and cut by count, by time span and by size', () => {
    const a = record(5);
    const b = record(1);
    const c = record(5);
    const limits = { maxRecords: 10, spanMs: BLOCK_SPAN_MS };
    expect(intoBlocks([a, b, c], limits)).toEqual([[b, a, c]]);
    expect(intoBlocks([a, b, c], { ...limits, maxRecords: 2 })).toEqual([[b, a], [c]]);
    const far = record(1 + BLOCK_SPAN_MS);
    expect(intoBlocks([far, b, a], limits)).toEqual([[b, a], [far]]);
    // By size: every block's body stays within the bound, and nothing is lost or reordered.
    const many = Array.from({ length: 500 }, (_, i) => record(i, { tags: [`tag-${i % 7}`], latency: i / 3 }));
    const blocks = intoBlocks(many, { maxRecords: Infinity, spanMs: BLOCK_SPAN_MS, maxBytes: 1_000 });
    expect(blocks.length).toBeGreaterThan(10);
    expect(blocks.flat()).toEqual(many);
    for (const block of blocks) expect(encodeBody(block).length).toBeLessThanOrEqual(1_000);
  });

  it('records come back whole from the stored bytes, the header tells sequence, skip and count', () => {
    const records = [
      record(10, { identityId: 'id_1', externalId: 'acme', tags: ['x', 'y'], latency: 1.25, spentCredits: 3, outcome: 'USAGE_EXCEEDED' }),
      record(11),
      record(11, { identityId: 'id_1', externalId: 'acme', tags: ['x', 'y'], outcome: 'USAGE_EXCEEDED' }),
    ];
    const bytes = blockBytes(42, 1, encodeBody(records), records.length);
    expect(readHeader(bytes)).toEqual({ seq: 42, skip: 1, count: 3 });
    expect(decodeBody(bytes.subarray(32))).toEqual(records);
    expect(storedBlock(10, bytes)).toEqual({ minTime: 10, seq: 42, records: records.slice(1) });
  });

  it('request ids of any length and script come back whole, batch after batch of one builder', () => {
    const builder = new ColumnsBuilder(3);
    const batches = [
      [record(1, { requestId: 'req_Zoë ✓ 𝄞' }), record(2, { requestId: 'r'.repeat(300) }), record(3, { requestId: '' })],
      [record(4), record(5, { requestId: 'req_ünïcode' })],
    ];
    for (const batch of batches) {
      for (const r of batch) builder.add(r);
      const c = builder.take();
      expect(decodeBody(encodeColumns(c, timeOrder(c)))).toEqual(batch.map((r) => expect.objectContaining({ time: r.time, requestId: r.requestId })));
    }
  });

  it('credits, latencies and times of every kind come back exactly as recorded', () => {
    const records = [
      record(1_700_000_000_000, { spentCredits: 2 ** 40, latency: 0 }),
      record(1_700_000_000_000.5, { spentCredits: 2.5 }),
      record(1_700_000_059_999, { spentCredits: -1, latency: Number.MIN_VALUE }),
      record(1_700_000_059_999, { spentCredits: Number.MAX_SAFE_INTEGER + 2, latency: 1e300 }),
    ];
    expect(decodeBody(encodeBody(records))).toEqual(records);
    // Out of time order (a caller that did not sort): each time still comes back.
    const c = columnsOf(records);
    expect(decodeBody(encodeColumns(c, Uint32Array.from([3, 0, 2, 1]))).map((r) => r.time)).toEqual([3, 0, 2, 1].map((i) => records[i]!.time));
  });

  it('a cut-short body is refused rather than read as fewer or wrong records', () => {
    const body = encodeBody([record(10, { latency: 1.5 }), record(11)]);
    for (const length of [body.length - 1, body.length - 9, 12]) expect(() => decodeBody(body.subarray(0, length))).toThrow();
  });

  it('a body written as msgpack columns (before bodies were written byte by byte) still decodes', () => {
    const r = record(10, { identityId: 'id_1', externalId: 'acme', tags: ['x'], latency: 2, spentCredits: 1 });
    const dims = JSON.stringify([r.apiId, r.keyId, 'id_1', 'acme', r.outcome, ['x']]);
    const plain = record(12);
    const plainDims = JSON.stringify([plain.apiId, plain.keyId, null, null, plain.outcome, null]);
    const body = pack([[r.time, plain.time], [r.requestId, plain.requestId], [dims, plainDims], [0, 1], [1, 0], [2, null]]);
    expect(decodeBody(body)).toEqual([r, plain]);
  });

  it('a body written with each combination of dimensions as a tuple (before they were kept as JSON) still decodes', () => {
    const r = record(10, { identityId: 'id_1', externalId: 'acme', tags: ['x'], latency: 2, spentCredits: 1 });
    const body = pack([[r.time], [r.requestId], [[r.apiId, r.keyId, 'id_1', 'acme', r.outcome, ['x']]], [0], [1], [2]]);
    expect(decodeBody(body)).toEqual([r]);
  });

  it('merging overlapping blocks gives (time, block, position) order, with bounds, a cursor and a limit', async () => {
    let seed = 3;
    const random = (m: number): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % m; };
    const blocks: StoredBlock[] = Array.from({ length: 30 }, (_, seq) => {
      const records = intoBlocks(Array.from({ length: 1 + random(20) }, () => record(seq * 10 + random(200))), { maxRecords: 100, spanMs: BLOCK_SPAN_MS })[0]!;
      return { minTime: records[0]!.time, seq, records };
    });
    const all = blocks.flatMap((b) => b.records.map((r, i) => ({ r, p: [r.time, b.seq, i] as Position })))
      .sort((x, y) => x.p[0] - y.p[0] || x.p[1] - y.p[1] || x.p[2] - y.p[2]);
    expect((await mergeBlocks(iterate(blocks), { limit: 10_000 })).items).toEqual(all.map((x) => x.r));
    const inRange = all.filter((x) => x.r.time >= 50 && x.r.time < 150);
    expect((await mergeBlocks(iterate(blocks), { fromMs: 50, toMs: 150, limit: 10_000 })).items).toEqual(inRange.map((x) => x.r));
    // Page by page from each page's last position: every record once.
    const paged: VerificationRecord[] = [];
    let after: Position | undefined;
    for (;;) {
      const page = await mergeBlocks(iterate(blocks), { fromMs: 50, toMs: 150, limit: 7, ...(after ? { after } : {}) });
      paged.push(...page.items);
      if (page.items.length < 7 || page.last === null) break;
      after = page.last;
    }
    expect(paged).toEqual(inRange.map((x) => x.r));
  });

  it("a cursor inside a block still holds after retention drops that block's first records", async () => {
    // Six records of one millisecond: a page of three, then the retention bound drops two.
    const records = Array.from({ length: 6 }, () => record(100));
    const body = encodeBody(records);
    const first = await mergeBlocks(iterate([storedBlock(100, blockBytes(7, 0, body, 6))]), { limit: 3 });
    expect(first.items).toEqual(records.slice(0, 3));
    const rest = await mergeBlocks(iterate([storedBlock(100, blockBytes(7, 2, body, 6))]), { limit: 10, after: first.last! });
    expect(rest.items).toEqual(records.slice(3));
  });
});
