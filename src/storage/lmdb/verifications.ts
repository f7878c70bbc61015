/**
 * Verification records in one LMDB database keyed by [time, sequence], so a time range is one
 * ordered scan and the oldest records are the first keys. Values are positional tuples (about a
 * third of the size of the same record with field names), decoded back on read.
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
import { GRANULARITIES, rollupDeltas, rollupRow, type RollupDelta, type RollupDims } from '../rollups.js';
import type { ScanOptions, ScanPage, VerificationStore } from '../types.js';
import type { LmdbTables } from './open.js';

type Key = [number, number];
type Tuple = [string, string, string, string | null, string | null, string, readonly string[] | null, number, (number | null)?];
type RollupKey = [number, number, string];
type RollupTuple = [...RollupDims, number, number, number, number];

const INCREMENTS_PER_TRANSACTION = 2_000;

const encode = (r: VerificationRecord): Tuple =>
  [r.requestId, r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null, r.spentCredits, r.latency ?? null];

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
  /** Orders records of the same millisecond; starts at random so a restart does not reuse keys. */
  private sequence = randomInt(2 ** 40);

  constructor(private readonly t: LmdbTables, private readonly retained: number) {}

  async append(records: readonly VerificationRecord[], rollups?: readonly RollupDelta[]): Promise<void> {
    const deltas = rollups ?? rollupDeltas(records);
    if (records.length === 0 && deltas.length === 0) return;
    // A transaction's callback runs on the event loop: a large batch of increments (the recorder
    // hands over a minute of hour/day/month sums at once) is added in several transactions, so
    // requests are answered between them instead of waiting ~0.1 s behind each 10,000 rows.
    for (let from = INCREMENTS_PER_TRANSACTION; from < deltas.length; from += INCREMENTS_PER_TRANSACTION) {
      await this.addIncrements(deltas.slice(from, from + INCREMENTS_PER_TRANSACTION));
    }
    await this.t.root.transaction(() => {
      for (const r of records) this.t.verifications.put([r.time, this.sequence++] satisfies Key, encode(r));
      this.upsert(deltas.length > INCREMENTS_PER_TRANSACTION ? deltas.slice(0, INCREMENTS_PER_TRANSACTION) : deltas);
      let excess = this.entries() - this.retained;
      if (excess <= 0) return;
      for (const key of this.t.verifications.getKeys({ limit: excess })) {
        this.t.verifications.remove(key);
        if (--excess === 0) break;
      }
    });
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
    const after = cursor === undefined ? undefined : JSON.parse(cursor) as Key;
    const items: VerificationRecord[] = [];
    let last: Key | undefined;
    const range = this.t.verifications.getRange({
      ...(after ? { start: after, exclusiveStart: true } : fromMs !== undefined ? { start: [fromMs] } : {}),
      ...(toMs !== undefined ? { end: [toMs] } : {}),
      limit,
    });
    for (const { key, value } of range) {
      last = key as Key;
      items.push(decode(last[0], value as Tuple));
    }
    return { items, cursor: items.length === limit && last ? JSON.stringify(last) : null };
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
    return this.entries();
  }

  /** LMDB keeps the entry count of a database: O(1), no scan. */
  private entries(): number {
    return (this.t.verifications.getStats() as { entryCount: number }).entryCount;
  }
}
