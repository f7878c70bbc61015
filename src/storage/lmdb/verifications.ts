/**
 * Verification records in one LMDB database, in blocks: the records of one append within
 * SPAN_MS of each other, as columns (the body format of verification-blocks.ts), so a batch
 * costs one put per block instead of one per record. A block stays below LMDB's overflow size:
 * larger values go to overflow pages, whose allocation behind the write lock slows down cold
 * verifications when there are many keys.
 *
 * Keyed by [first record time, sequence], so a time range is one ordered scan from SPAN_MS before
 * it; blocks that overlap in time (a late record) are merged on read. A block's value is
 * [skip, count, body]: the retention bound drops records from the front of the oldest block by
 * raising `skip`, and the number of records kept is a counter (the `counters` database), so
 * neither appending nor trimming counts records. Records written before blocks ([time, sequence]
 * → one record tuple) are read as blocks of one; the counter starts as their number.
 *
 * Rollups live in a second database keyed by [granularity, bucket start, dimensions digest]
 * (storage/rollups.ts): a bucket is one ordered range, old buckets are the first keys of their
 * granularity. The append transaction writes the records and adds the rollup increments given
 * with them (the recorder holds hour, day and month increments back; analytics/recorder.ts), so
 * both are committed together or not at all; a very large set of increments is added in further
 * transactions of 2,000 rows, so requests are answered in between.
 */
import { randomInt } from 'node:crypto';
import { verificationRecord, type RollupGranularity, type VerificationRecord, type VerificationRollup } from '../records.js';
import { columnRollupDeltas, GRANULARITIES, rollupRow, type RollupDelta, type RollupDims } from '../rollups.js';
import type { ScanOptions, ScanPage, VerificationStore } from '../types.js';
import { cutBlocks, decodeBody, encodeColumns, mergeBlocks, type Position, type StoredBlock } from '../verification-blocks.js';
import { columnsOf, timeOrder, type VerificationColumns } from '../verification-columns.js';
import type { LmdbTables } from './open.js';

type Key = [number, number];
/** A record written before blocks. */
type Tuple = [string, string, string, string | null, string | null, string, readonly string[] | null, number, (number | null)?];
type Block = [skip: number, count: number, body: Uint8Array];
type RollupKey = [number, number, string];
type RollupTuple = [...RollupDims, number, number, number, number];

/** A block's records span less than this, so a read from T starts with the blocks from T − SPAN_MS. */
const SPAN_MS = 1_000;
/** Body bytes a block is cut at (estimated), and the most it may have once encoded before it is halved. */
const CUT_BYTES = 1_800;
const MAX_BODY_BYTES = 1_950;
/** The counter of records kept, in the counters database. */
const KEPT = 'verifications';

const INCREMENTS_PER_TRANSACTION = 2_000;
/** Records whose blocks are encoded in one turn of the event loop: requests are answered between such pieces. */
const ENCODE_RECORDS_PER_TURN = 128;

function decodeTuple(time: number, [requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency]: Tuple): VerificationRecord {
  // Records written before latency was recorded have 8 fields.
  return verificationRecord(time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency);
}

const isBlock = (value: Block | Tuple): value is Block => typeof value[0] === 'number';

function storedBlock([minTime, seq]: Key, value: Block | Tuple): StoredBlock {
  if (!isBlock(value)) return { minTime, seq, records: [decodeTuple(minTime, value)] };
  return { minTime, seq, records: decodeBody(value[2]).slice(value[0]) };
}

function decodeRollup(time: number, tuple: RollupTuple): VerificationRollup {
  const [apiId, keyId, identityId, externalId, outcome, tags, count, spentCredits, latencySum, latencyCount] = tuple;
  return rollupRow(time, [apiId, keyId, identityId, externalId, outcome, tags], { count, spentCredits, latencySum, latencyCount });
}

const level = (granularity: RollupGranularity): number => GRANULARITIES.indexOf(granularity);

/** Rollup keys removed per transaction when pruning, so one prune never holds the writer long. */
const PRUNE_CHUNK = 5_000;

export class LmdbVerificationStore implements VerificationStore {
  /** Orders records of the same millisecond; starts at random so a restart does not reuse keys. */
  private sequence = randomInt(2 ** 40);

  constructor(private readonly t: LmdbTables, private readonly retained: number) {}

  append(records: readonly VerificationRecord[], rollups?: readonly RollupDelta[]): Promise<void> {
    return this.appendColumns(columnsOf(records), rollups);
  }

  async appendColumns(c: VerificationColumns, rollups?: readonly RollupDelta[]): Promise<void> {
    const deltas = rollups ?? columnRollupDeltas(c);
    if (c.count === 0 && deltas.length === 0) return;
    // A transaction's callback runs on the event loop: a large batch of increments (a recorder's
    // flush() hands over every due rollup row at once) is added in several transactions, so
    // requests are answered between them instead of waiting behind one long transaction.
    for (let from = INCREMENTS_PER_TRANSACTION; from < deltas.length; from += INCREMENTS_PER_TRANSACTION) {
      await this.addIncrements(deltas.slice(from, from + INCREMENTS_PER_TRANSACTION));
    }
    const blocks: { minTime: number; count: number; body: Buffer }[] = [];
    if (c.count > 0) {
      let sincePause = 0;
      for (const indexes of cutBlocks(c, timeOrder(c), { maxRecords: Infinity, spanMs: SPAN_MS, maxBytes: CUT_BYTES })) {
        encodeFitting(c, indexes, blocks);
        sincePause += indexes.length;
        // Requests are answered in between when this runs on the event loop (analytics/recorders.ts).
        if (sincePause >= ENCODE_RECORDS_PER_TURN) {
          sincePause = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    }
    await this.t.root.transaction(() => {
      const kept = this.kept();
      for (const b of blocks) this.t.verifications.put([b.minTime, this.sequence++] satisfies Key, [0, b.count, b.body] satisfies Block);
      this.upsert(deltas.length > INCREMENTS_PER_TRANSACTION ? deltas.slice(0, INCREMENTS_PER_TRANSACTION) : deltas);
      const total = kept + c.count;
      if (total > this.retained) this.trim(total - this.retained);
      this.t.counters.put(KEPT, Math.min(total, this.retained));
    });
  }

  /** Inside a write transaction: the number of records kept (before blocks, one per entry). */
  private kept(): number {
    return (this.t.counters.get(KEPT) as number | undefined) ?? this.entries();
  }

  /** Inside a write transaction: drops the `excess` oldest records, whole blocks first. */
  private trim(excess: number): void {
    const changes: { key: Key; value: Block | null }[] = [];
    for (const { key, value } of this.t.verifications.getRange({})) {
      const v = value as Block | Tuple;
      const left = isBlock(v) ? v[1] - v[0] : 1;
      if (left <= excess) {
        changes.push({ key: key as Key, value: null });
        excess -= left;
      }
      else {
        // A copy: a value read may be a view of lmdb's read buffer, which later reads reuse.
        const [skip, count, body] = v as Block;
        changes.push({ key: key as Key, value: [skip + excess, count, Buffer.from(body)] });
        excess = 0;
      }
      if (excess === 0) break;
    }
    for (const { key, value } of changes) {
      if (value === null) this.t.verifications.remove(key);
      else this.t.verifications.put(key, value);
    }
  }

  private addIncrements(deltas: readonly RollupDelta[]): Promise<void> {
    return this.t.root.transaction(() => this.upsert(deltas));
  }

  /** Inside a write transaction: adds each increment to its stored rollup row. */
  private upsert(deltas: readonly RollupDelta[]): void {
    for (const d of deltas) {
      const key: RollupKey = [level(d.granularity), d.time, d.digest];
      const stored = this.t.verificationRollups.get(key) as RollupTuple | undefined;
      const [count, spent, latencySum, latencyCount] = stored ? stored.slice(6) as number[] : [0, 0, 0, 0];
      this.t.verificationRollups.put(key, [...d.dims, count! + d.count, spent! + d.spentCredits,
        latencySum! + d.latencySum, latencyCount! + d.latencyCount] satisfies RollupTuple);
    }
  }

  async range({ fromMs, toMs, limit }: { fromMs?: number; toMs?: number; limit: number }): Promise<VerificationRecord[]> {
    return (await this.scan({ ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}), limit })).items;
  }

  /** The cursor is the last record's place in the merged order (verification-blocks.ts). */
  async scan({ fromMs, toMs, limit, cursor }: ScanOptions): Promise<ScanPage<VerificationRecord>> {
    if (limit <= 0) return { items: [], cursor: null };
    const after = cursor === undefined ? undefined : positionOfCursor(cursor);
    const from = after !== undefined ? after[0] : fromMs;
    const range = this.t.verifications.getRange({
      ...(from !== undefined ? { start: [from - SPAN_MS] } : {}),
      ...(toMs !== undefined ? { end: [toMs] } : {}),
    }).map(({ key, value }) => storedBlock(key as Key, value as Block | Tuple));
    const { items, last } = await mergeBlocks(range[Symbol.iterator](), {
      ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}), ...(after !== undefined ? { after } : {}), limit,
    });
    return { items, cursor: items.length === limit && last !== null ? JSON.stringify(last) : null };
  }

  async scanRollups(granularity: RollupGranularity, { fromMs, toMs, limit, cursor }: ScanOptions): Promise<ScanPage<VerificationRollup>> {
    const g = level(granularity);
    const after = cursor === undefined ? undefined : JSON.parse(cursor) as RollupKey;
    const items: VerificationRollup[] = [];
    let last: RollupKey | undefined;
    const range = this.t.verificationRollups.getRange({
      ...(after ? { start: after, exclusiveStart: true } : { start: fromMs !== undefined ? [g, fromMs] : [g] }),
      end: toMs !== undefined ? [g, toMs] : [g + 1],
      limit,
    });
    for (const { key, value } of range) {
      last = key as RollupKey;
      items.push(decodeRollup(last[1], value as RollupTuple));
    }
    return { items, cursor: items.length === limit && last ? JSON.stringify(last) : null };
  }

  async pruneRollups(granularity: RollupGranularity, beforeMs: number): Promise<void> {
    const g = level(granularity);
    for (;;) {
      const removed = await this.t.root.transaction(() => {
        let n = 0;
        for (const key of this.t.verificationRollups.getKeys({ start: [g], end: [g, beforeMs], limit: PRUNE_CHUNK })) {
          this.t.verificationRollups.remove(key);
          n++;
        }
        return n;
      });
      if (removed < PRUNE_CHUNK) return;
    }
  }

  async count(): Promise<number> {
    return this.kept();
  }

  /**
   * lmdb-js reads through one snapshot until a timer renews it, so a read right after the
   * writer thread's commit could still miss it; renewing now makes it visible.
   */
  seeOtherThreadsWrites(): void {
    this.t.verifications.resetReadTxn();
  }

  /** LMDB keeps the entry count of a database: O(1), no scan. */
  private entries(): number {
    return (this.t.verifications.getStats() as { entryCount: number }).entryCount;
  }
}

/** Encodes a block, halving it while its body is too large for LMDB's ordinary pages. */
function encodeFitting(c: VerificationColumns, indexes: Uint32Array, out: { minTime: number; count: number; body: Buffer }[]): void {
  const body = encodeColumns(c, indexes);
  if (body.length > MAX_BODY_BYTES && indexes.length > 1) {
    const half = indexes.length >> 1;
    encodeFitting(c, indexes.subarray(0, half), out);
    encodeFitting(c, indexes.subarray(half), out);
    return;
  }
  out.push({ minTime: c.times[indexes[0]!]!, count: indexes.length, body });
}

/** A scan's cursor; one given before blocks was [time, sequence] of a single record. */
function positionOfCursor(cursor: string): Position {
  const parsed = JSON.parse(cursor) as number[];
  return parsed.length === 2 ? [parsed[0]!, parsed[1]!, -1] : parsed as unknown as Position;
}
