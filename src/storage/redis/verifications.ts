/**
 * Verification records in Redis: one sorted set scored by record time (ms), trimmed to the
 * retained number by lua/verifications-append.lua in the same atomic step as the append. Each
 * member is a 16-hex-digit sequence number followed by the msgpack record, so records of one
 * millisecond keep their append order (members of equal score sort by bytes) and equal records
 * stay distinct. range is ZRANGEBYSCORE [fromMs, toMs): exact on record time (ms are integers,
 * exact as scores). A Stream would not do: its ids must grow, and batches arrive out of time order.
 *
 * Rollups (storage/rollups.ts): one hash per (granularity, bucket) whose fields, per digest D of
 * a combination of dimensions, hold the dimensions ('d'D) and the sums ('c'D count, 's'D spent
 * credits, 'l'D latency sum, 'n'D latencies), plus a sorted set of the bucket starts of each
 * granularity. The same script call that appends records adds them to these with HINCRBY.
 *
 * Everything lives under one hash tag, so it is one cluster node (one slot); the log is bounded
 * by VERIFICATIONS_RETAINED, rollups by the analytics retention (pruneRollups). Records are
 * positional tuples, as in LMDB (a third of the size).
 */
import type { RedisClient } from '../../redis/client.js';
import { decode, encode } from '../../redis/codec.js';
import { verificationRecord, type RollupGranularity, type VerificationRecord, type VerificationRollup } from '../records.js';
import { GRANULARITIES, rollupDeltas, rollupRow, type RollupDelta, type RollupDims } from '../rollups.js';
import type { ScanOptions, ScanPage, VerificationStore } from '../types.js';
import type { StorageKeys } from './keys.js';
import { scripts } from './scripts.js';

type Tuple = [number, string, string, string, string | null, string | null, string, readonly string[] | null, number, (number | null)?];

/** Bytes of the sequence prefix of a member. */
const SEQUENCE_BYTES = 16;
/** Records per script call: one call must stay short, as it holds the node. */
const APPEND_CHUNK = 250;
/** Rollup buckets read per scan page (one pipelined HGETALL each). */
const BUCKETS_PER_PAGE = 16;
/** Buckets removed per MULTI when pruning. */
const PRUNE_CHUNK = 500;

const toTuple = (r: VerificationRecord): Tuple =>
  [r.time, r.requestId, r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null, r.spentCredits, r.latency ?? null];

function fromTuple([time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency]: Tuple): VerificationRecord {
  // Records written before latency was recorded have 9 fields.
  return verificationRecord(time, requestId, apiId, keyId, identityId, externalId, outcome, tags, spentCredits, latency);
}

/** The rows of one bucket hash (fields as described above). */
function rowsOfBucket(time: number, hash: Record<string, Buffer>): VerificationRollup[] {
  const rows: VerificationRollup[] = [];
  const num = (field: string): number => (hash[field] === undefined ? 0 : Number(hash[field]!.toString()));
  for (const [field, value] of Object.entries(hash)) {
    if (field[0] !== 'd') continue;
    const digest = field.slice(1);
    rows.push(rollupRow(time, decode<RollupDims>(value)!, {
      count: num(`c${digest}`), spentCredits: num(`s${digest}`), latencySum: num(`l${digest}`), latencyCount: num(`n${digest}`),
    }));
  }
  return rows;
}

export class RedisVerificationStore implements VerificationStore {
  constructor(private readonly client: RedisClient, private readonly k: StorageKeys, private readonly retained: number) {}

  async append(records: readonly VerificationRecord[], rollups: readonly RollupDelta[] = rollupDeltas(records)): Promise<void> {
    // Records and increments in chunks of the same size as before (up to four increments a record).
    const chunks = Math.max(Math.ceil(records.length / APPEND_CHUNK), Math.ceil(rollups.length / (4 * APPEND_CHUNK)));
    for (let i = 0; i < chunks; i++) {
      await this.appendChunk(records.slice(i * APPEND_CHUNK, (i + 1) * APPEND_CHUNK), rollups.slice(i * 4 * APPEND_CHUNK, (i + 1) * 4 * APPEND_CHUNK));
    }
  }

  private async appendChunk(records: readonly VerificationRecord[], rollups: readonly RollupDelta[]): Promise<void> {
    if (records.length === 0 && rollups.length === 0) return;
    const keys: string[] = [this.k.verifications, this.k.verificationSequence, ...GRANULARITIES.map((g) => this.k.verificationRollupBuckets(g))];
    const args: (string | Buffer | number)[] = [this.retained, records.length];
    for (const r of records) args.push(r.time, encode(toTuple(r)));
    const bucketIndex = new Map<string, number>();
    for (const d of rollups) {
      const key = this.k.verificationRollup(d.granularity, d.time);
      let index = bucketIndex.get(key);
      if (index === undefined) {
        index = keys.push(key);
        bucketIndex.set(key, index);
      }
      const latencySum = Number.isFinite(d.latencySum) ? d.latencySum : 0;
      args.push(index, 3 + GRANULARITIES.indexOf(d.granularity), d.time, d.digest, encode(d.dims),
        d.count, d.spentCredits, String(latencySum), d.latencyCount);
    }
    await scripts.verificationsAppend.run(this.client, keys, args);
  }

  async range({ fromMs, toMs, limit }: { fromMs?: number; toMs?: number; limit: number }): Promise<VerificationRecord[]> {
    return (await this.scan({ ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}), limit })).items;
  }

  /**
   * The cursor is `<time>:<skip>`: the time of the page's last record and how many records of
   * that millisecond were read already (members of one score keep their order).
   */
  async scan({ fromMs, toMs, limit, cursor }: ScanOptions): Promise<ScanPage<VerificationRecord>> {
    if (limit <= 0) return { items: [], cursor: null };
    let min = fromMs === undefined ? '-inf' : String(fromMs);
    let skip = 0;
    if (cursor !== undefined) {
      const [time, seen] = cursor.split(':');
      min = time!;
      skip = Number(seen);
    }
    const members = await this.client.zrangebyscoreBuffer(this.k.verifications, min,
      toMs === undefined ? '+inf' : `(${toMs}`, 'LIMIT', skip, limit);
    const items = members.map((m) => fromTuple(decode<Tuple>(m.subarray(SEQUENCE_BYTES))!));
    if (items.length < limit) return { items, cursor: null };
    const lastTime = items[items.length - 1]!.time;
    let same = 0;
    for (let i = items.length - 1; i >= 0 && items[i]!.time === lastTime; i--) same++;
    if (cursor !== undefined && Number(min) === lastTime) same += skip;
    return { items, cursor: `${lastTime}:${same}` };
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
      items.push(...rowsOfBucket(Number(starts[i]), hash as Record<string, Buffer>));
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
    return this.client.zcard(this.k.verifications);
  }
}
