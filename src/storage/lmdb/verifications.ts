/**
 * Verification records in blocks (storage/verification-blocks.ts), one LMDB value per block keyed
 * by [first record's time, block sequence]: a time range is one ordered scan of the blocks from
 * (start − the block span), merged; the oldest blocks are the first keys. The number of records
 * kept and the last sequence live in a small meta database, written in the same transaction.
 * Records stored one per key by earlier versions are converted into blocks when the store is
 * first used.
 *
 * Rollups live in a second database keyed by [granularity, bucket start, dimensions digest]
 * (storage/rollups.ts): a bucket is one ordered range, old buckets are the first keys of their
 * granularity. The append transaction writes the records and adds the rollup increments given
 * with them (the recorder holds hour, day and month increments back; analytics/recorder.ts), so
 * both are committed together or not at all; a very large set of increments is added in further
 * transactions of 2,000 rows, so requests are answered in between.
 */
import { BLOCK_SPAN_MS, blockBytes, encodeBody, intoBlocks, mergeBlocks, readHeader, storedBlock, type Position, type StoredBlock } from '../verification-blocks.js';
import { verificationRecord, type RollupGranularity, type VerificationRecord, type VerificationRollup } from '../records.js';
import { GRANULARITIES, rollupDeltas, rollupRow, type RollupDelta, type RollupDims } from '../rollups.js';
import type { ScanOptions, ScanPage, VerificationStore } from '../types.js';
import type { LmdbTables } from './open.js';

type Key = [number, number];
type Tuple = [string, string, string, string | null, string | null, string, readonly string[] | null, number, (number | null)?];
type RollupKey = [number, number, string];
type RollupTuple = [...RollupDims, number, number, number, number];

const INCREMENTS_PER_TRANSACTION = 2_000;
/** Records per block: a recorder batch is one block, or a few when it spans minutes. */
const BLOCK_RECORDS = 2_000;
/** Old one-record entries converted per transaction. */
const CONVERT_CHUNK = 2_000;

function decode(time: number, [requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency]: Tuple): VerificationRecord {
  // Records written before latency was recorded have 8 fields.
  return verificationRecord(time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency);
}

function decodeRollup(time: number, tuple: RollupTuple): VerificationRollup {
  const [apiId, keyId, identityId, externalId, outcome, tags, count, spentCredits, latencySum, latencyCount] = tuple;
  return rollupRow(time, [apiId, keyId, identityId, externalId, outcome, tags], { count, spentCredits, latencySum, latencyCount });
}

const level = (granularity: RollupGranularity): number => GRANULARITIES.indexOf(granularity);

/** Rollup keys removed per transaction when pruning, so one prune never holds the writer long. */
const PRUNE_CHUNK = 5_000;

export class LmdbVerificationStore implements VerificationStore {
  private converted: Promise<void> | undefined;

  constructor(private readonly t: LmdbTables, private readonly retained: number) {}

  async append(records: readonly VerificationRecord[], rollups?: readonly RollupDelta[]): Promise<void> {
    await this.convertOldRecords();
    const deltas = rollups ?? rollupDeltas(records);
    if (records.length === 0 && deltas.length === 0) return;
    // A transaction's callback runs on the event loop: a large batch of increments (the recorder
    // hands over a minute of hour/day/month sums at once) is added in several transactions, so
    // requests are answered between them instead of waiting ~0.1 s behind each 10,000 rows.
    for (let from = INCREMENTS_PER_TRANSACTION; from < deltas.length; from += INCREMENTS_PER_TRANSACTION) {
      await this.addIncrements(deltas.slice(from, from + INCREMENTS_PER_TRANSACTION));
    }
    // Encoded before the transaction, so the write lock is held only for the puts.
    const blocks = intoBlocks(records, BLOCK_RECORDS).map((block) => ({ minTime: block[0]!.time, count: block.length, body: encodeBody(block) }));
    await this.t.root.transaction(() => {
      const { verificationBlocks, verificationMeta } = this.t;
      let seq = (verificationMeta.get('seq') as number | undefined) ?? 0;
      let count = (verificationMeta.get('count') as number | undefined) ?? 0;
      for (const block of blocks) {
        seq++;
        verificationBlocks.put([block.minTime, seq], blockBytes(seq, 0, block.body, block.count));
        count += block.count;
      }
      this.upsert(deltas.length > INCREMENTS_PER_TRANSACTION ? deltas.slice(0, INCREMENTS_PER_TRANSACTION) : deltas);
      verificationMeta.put('seq', seq);
      verificationMeta.put('count', this.trim(count));
    });
  }

  /**
   * Inside a write transaction: drops the oldest blocks (whole, or the first records of the oldest
   * one) until at most `retained` records are kept; answers how many are.
   */
  private trim(count: number): number {
    let excess = count - this.retained;
    while (excess > 0) {
      const [first] = [...this.t.verificationBlocks.getRange({ limit: 1 })];
      if (first === undefined) return 0;
      const { skip, count: n } = readHeader(first.value);
      if (n - skip <= excess) {
        this.t.verificationBlocks.remove(first.key);
        excess -= n - skip;
        count -= n - skip;
      } else {
        const bytes = Buffer.from(first.value);
        bytes.write((skip + excess).toString(16).padStart(8, '0'), 16, 8, 'latin1');
        this.t.verificationBlocks.put(first.key, bytes);
        count -= excess;
        excess = 0;
      }
    }
    return count;
  }

  /** Moves records stored one per key (before blocks) into blocks, once per store; idempotent. */
  private convertOldRecords(): Promise<void> {
    this.converted ??= (async () => {
      for (;;) {
        const moved = await this.t.root.transaction(() => {
          const { verifications, verificationBlocks, verificationMeta } = this.t;
          const old = [...verifications.getRange({ limit: CONVERT_CHUNK })];
          if (old.length === 0) return 0;
          const records = old.map(({ key, value }) => decode((key as Key)[0], value as Tuple));
          let seq = (verificationMeta.get('seq') as number | undefined) ?? 0;
          for (const block of intoBlocks(records, BLOCK_RECORDS)) {
            seq++;
            verificationBlocks.put([block[0]!.time, seq], blockBytes(seq, 0, encodeBody(block), block.length));
          }
          for (const { key } of old) verifications.remove(key);
          verificationMeta.put('seq', seq);
          verificationMeta.put('count', ((verificationMeta.get('count') as number | undefined) ?? 0) + records.length);
          return old.length;
        });
        if (moved < CONVERT_CHUNK) return;
      }
    })();
    return this.converted;
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

  async scan({ fromMs, toMs, limit, cursor }: ScanOptions): Promise<ScanPage<VerificationRecord>> {
    await this.convertOldRecords();
    if (limit <= 0) return { items: [], cursor: null };
    const after = cursor === undefined ? undefined : JSON.parse(cursor) as Position;
    const start = (after !== undefined ? after[0] : fromMs ?? -Infinity) - BLOCK_SPAN_MS;
    const range = this.t.verificationBlocks.getRange({
      ...(Number.isFinite(start) ? { start: [start] } : {}),
      ...(toMs !== undefined ? { end: [toMs] } : {}),
    });
    const blocks = (function* (): Generator<StoredBlock> {
      for (const { key, value } of range) yield storedBlock((key as Key)[0], value);
    })();
    const { items, last } = await mergeBlocks(blocks, {
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
    await this.convertOldRecords();
    return (this.t.verificationMeta.get('count') as number | undefined) ?? 0;
  }
}
