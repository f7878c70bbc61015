/**
 * Verification records in Redis: blocks of records (storage/verification-blocks.ts), one member
 * each of a sorted set scored by the block's first record time (ms), trimmed to the retained
 * number of records by lua/verifications-append.lua in the same atomic step as the append (a
 * counter key holds the number kept). Members of equal score sort by their leading sequence
 * number. Reading takes the blocks scored from (start − the block span) and merges them. Members
 * written before blocks (one record each) are read as blocks of one. A Stream would not do: its
 * ids must grow, and batches arrive out of time order.
 *
 * Rollups (storage/rollups.ts): one hash per (granularity, bucket) with a field per digest D of
 * a combination of dimensions ('v'D: the sums, then the dimensions; lua/verifications-append.lua
 * says how they are packed, and what older buckets hold), plus a sorted set of the bucket starts
 * of each granularity. The same script call that appends records adds to them.
 *
 * Everything lives under one hash tag, so it is one cluster node (one slot); the log is bounded
 * by VERIFICATIONS_RETAINED, rollups by the analytics retention (pruneRollups). Records are
 * positional tuples, as in LMDB (no field names repeated in every record).
 */
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import { verificationRecord, type RollupGranularity, type VerificationRecord, type VerificationRollup } from '../records.js';
import { BLOCK_SPAN_MS, cutBlocks, encodeColumns, mergeBlocks, storedBlock, type Position, type StoredBlock } from '../verification-blocks.js';
import { columnsOf, timeOrder, type VerificationColumns } from '../verification-columns.js';
import { columnRollupDeltas, GRANULARITIES, rollupRow, type RollupDelta, type RollupDims } from '../rollups.js';
import type { ScanOptions, ScanPage, VerificationStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import { scripts } from './scripts.js';

type Tuple = [number, string, string, string, string | null, string | null, string, readonly string[] | null, number, (number | null)?];

/** Bytes of the sequence prefix of a member. */
const SEQUENCE_BYTES = 16;
/** Records per block, and per script call: one call must stay short, as it holds the node. */
const APPEND_CHUNK = 1_000;
/** Rollup increments per script call. */
const INCREMENTS_CHUNK = 1_000;
/** Blocks read per page of a scan. */
const BLOCKS_PER_READ = 16;
/** Rollup buckets read per scan page (one pipelined HGETALL each). */
const BUCKETS_PER_PAGE = 16;
/** Buckets removed per MULTI when pruning. */
const PRUNE_CHUNK = 500;

/** A member written before blocks: the sequence, then one msgpack record. */
function oneRecordBlock(member: Buffer): StoredBlock {
  const record = fromTuple(decode<Tuple>(member.subarray(SEQUENCE_BYTES))!);
  return { minTime: record.time, seq: parseInt(member.subarray(0, SEQUENCE_BYTES).toString('latin1'), 16), records: [record] };
}

function fromTuple([time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency]: Tuple): VerificationRecord {
  // Records written before latency was recorded have 9 fields.
  return verificationRecord(time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency);
}

/** Bytes of a row's sums before its dimensions: four little-endian doubles. */
const SUMS_BYTES = 32;

/**
 * The rows of one bucket hash (fields as described above). A row may have sums of both layouts
 * (a bucket written across an upgrade): they are added.
 */
function rowsOfBucket(time: number, hash: Record<string, Buffer>): VerificationRollup[] {
  const rows = new Map<string, { dims: RollupDims; count: number; spentCredits: number; latencySum: number; latencyCount: number }>();
  const num = (field: string): number => (hash[field] === undefined ? 0 : Number(hash[field]!.toString()));
  for (const [field, value] of Object.entries(hash)) {
    const layout = field[0];
    if (layout !== 'v' && layout !== 'd') continue;
    const digest = field.slice(1);
    const sums = layout === 'v'
      ? { count: value.readDoubleLE(0), spentCredits: value.readDoubleLE(8), latencySum: value.readDoubleLE(16), latencyCount: value.readDoubleLE(24) }
      : { count: num(`c${digest}`), spentCredits: num(`s${digest}`), latencySum: num(`l${digest}`), latencyCount: num(`n${digest}`) };
    const row = rows.get(digest);
    if (row === undefined) {
      rows.set(digest, { dims: decode<RollupDims>(layout === 'v' ? value.subarray(SUMS_BYTES) : value)!, ...sums });
      continue;
    }
    row.count += sums.count;
    row.spentCredits += sums.spentCredits;
    row.latencySum += sums.latencySum;
    row.latencyCount += sums.latencyCount;
  }
  return [...rows.values()].map(({ dims, ...sums }) => rollupRow(time, dims, sums));
}

export class RedisVerificationStore implements VerificationStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly retained: number) {}

  append(records: readonly VerificationRecord[], rollups?: readonly RollupDelta[]): Promise<void> {
    return this.appendColumns(columnsOf(records), rollups);
  }

  async appendColumns(c: VerificationColumns, rollups: readonly RollupDelta[] = columnRollupDeltas(c), callId?: string): Promise<void> {
    // Cut the same way every time, so a retried append sends the same calls (one id per chunk).
    const blocks = cutBlocks(c, timeOrder(c), { maxRecords: APPEND_CHUNK, spanMs: BLOCK_SPAN_MS });
    const calls = Math.max(blocks.length, Math.ceil(rollups.length / INCREMENTS_CHUNK));
    for (let i = 0; i < calls; i++) {
      const block = blocks[i];
      await this.appendChunk(block === undefined ? null : { minTime: c.times[block[0]!]!, count: block.length, body: encodeColumns(c, block) },
        rollups.slice(i * INCREMENTS_CHUNK, (i + 1) * INCREMENTS_CHUNK), callId === undefined ? undefined : `${callId}.${i}`);
    }
  }

  /** One block (records sorted by time, maybe none) and some increments, in one script call. */
  private async appendChunk(block: { minTime: number; count: number; body: Buffer } | null, rollups: readonly RollupDelta[], callId: string | undefined): Promise<void> {
    if (block === null && rollups.length === 0) return;
    const keys: string[] = [this.k.verifications, this.k.verificationSequence, this.k.verificationCount,
      ...GRANULARITIES.map((g) => this.k.verificationRollupBuckets(g))];
    const args: (string | Buffer | number)[] = [this.retained, block === null ? 0 : 1];
    if (block !== null) args.push(block.minTime, block.count, block.body);
    if (rollups.length > 0) {
      // lua/verifications-append.lua: buckets, digests, then six numbers per increment, as one
      // msgpack array; the dimensions' bytes follow as arguments of their own.
      const buckets = new Map<string, number>();
      const bucketList: (number | string)[] = [];
      const digests = new Map<string, number>();
      const digestList: string[] = [];
      const dimsArgs: Buffer[] = [];
      const increments: number[] = [];
      for (const d of rollups) {
        const key = this.k.verificationRollup(d.granularity, d.time);
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          buckets.set(key, bucket = buckets.size + 1);
          bucketList.push(keys.push(key), 4 + GRANULARITIES.indexOf(d.granularity), String(d.time));
        }
        let dims = digests.get(d.digest);
        if (dims === undefined) {
          digests.set(d.digest, dims = digests.size + 1);
          digestList.push(d.digest);
          dimsArgs.push(encode(d.dims));
        }
        increments.push(bucket, dims, d.count, d.spentCredits, Number.isFinite(d.latencySum) ? d.latencySum : 0, d.latencyCount);
      }
      args.push(encode([buckets.size, ...bucketList, digests.size, ...digestList, ...increments]), ...dimsArgs);
    }
    await scripts.verificationsAppend.run(this.client, keys, args, false, callId);
  }

  async range({ fromMs, toMs, limit }: { fromMs?: number; toMs?: number; limit: number }): Promise<VerificationRecord[]> {
    return (await this.scan({ ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}), limit })).items;
  }

  /** The cursor is the last record's place in the merged order (verification-blocks.ts). */
  async scan({ fromMs, toMs, limit, cursor }: ScanOptions): Promise<ScanPage<VerificationRecord>> {
    if (limit <= 0) return { items: [], cursor: null };
    const after = cursor === undefined ? undefined : JSON.parse(cursor) as Position;
    const start = (after !== undefined ? after[0] : fromMs ?? -Infinity) - BLOCK_SPAN_MS;
    const { items, last } = await mergeBlocks(this.blocks(Number.isFinite(start) ? String(start) : '-inf', toMs === undefined ? '+inf' : `(${toMs}`), {
      ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}), ...(after !== undefined ? { after } : {}), limit,
    });
    return { items, cursor: items.length === limit && last !== null ? JSON.stringify(last) : null };
  }

  /** The blocks scored in [min, max], read a page at a time (members of one score by offset). */
  private async *blocks(min: string, max: string): AsyncGenerator<StoredBlock> {
    let from = min;
    let seenAtFrom = 0;
    for (;;) {
      const page = await this.client.zrangebyscoreBuffer(this.k.verifications, from, max, 'WITHSCORES', 'LIMIT', seenAtFrom, BLOCKS_PER_READ);
      for (let i = 0; i < page.length; i += 2) {
        const member = page[i]!;
        const score = Number(page[i + 1]!.toString());
        yield member[SEQUENCE_BYTES]! < 0x80 ? storedBlock(score, member) : oneRecordBlock(member);
        if (String(score) === from) seenAtFrom++;
        else {
          from = String(score);
          seenAtFrom = 1;
        }
      }
      if (page.length < 2 * BLOCKS_PER_READ) return;
    }
  }

  /** Pages by whole buckets (BUCKETS_PER_PAGE of them); the cursor is the last bucket start read. */
  async scanRollups(granularity: RollupGranularity, { fromMs, toMs, cursor }: ScanOptions): Promise<ScanPage<VerificationRollup>> {
    const min = cursor !== undefined ? `(${cursor}` : fromMs === undefined ? '-inf' : String(fromMs);
    const starts = await this.client.zrangebyscore(this.k.verificationRollupBuckets(granularity), min,
      toMs === undefined ? '+inf' : `(${toMs}`, 'LIMIT', 0, BUCKETS_PER_PAGE);
    if (starts.length === 0) return { items: [], cursor: null };
    const pipeline = this.client.pipeline();
    for (const start of starts) pipeline.hgetallBuffer(this.k.verificationRollup(granularity, Number(start)));
    const replies = (await pipeline.exec()) ?? [];
    const items: VerificationRollup[] = [];
    replies.forEach(([err, hash], i) => {
      if (err) throw err;
      // A loop, not push(...rows): one bucket may hold more rows than a call takes arguments.
      for (const row of rowsOfBucket(Number(starts[i]), hash as Record<string, Buffer>)) items.push(row);
    });
    return { items, cursor: starts.length < BUCKETS_PER_PAGE ? null : starts[starts.length - 1]! };
  }

  async pruneRollups(granularity: RollupGranularity, beforeMs: number): Promise<void> {
    const index = this.k.verificationRollupBuckets(granularity);
    for (;;) {
      const starts = await this.client.zrangebyscore(index, '-inf', `(${beforeMs}`, 'LIMIT', 0, PRUNE_CHUNK);
      if (starts.length === 0) return;
      const replies = await this.client.multi()
        .del(...starts.map((start) => this.k.verificationRollup(granularity, Number(start))))
        .zrem(index, ...starts)
        .exec();
      for (const [err] of replies ?? []) if (err) throw err;
      if (starts.length < PRUNE_CHUNK) return;
    }
  }

  async count(): Promise<number> {
    const kept = await this.client.get(this.k.verificationCount);
    return kept === null ? this.client.zcard(this.k.verifications) : Number(kept);
  }
}
