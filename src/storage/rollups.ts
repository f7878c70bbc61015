/**
 * Rollups of verification records, shared by every backend: which bucket a record falls in
 * (UTC minute, hour, day, month) and how a batch of records becomes one increment per
 * (granularity, bucket, dimensions). The backends add these increments to their stored rows in
 * the same atomic write that appends the records (lmdb/verifications.ts, redis/verifications.ts).
 *
 * Dimensions are the columns of Unkey's key_verifications_per_*_v1 tables: API (Unkey's key
 * space), key, identity, external id, outcome and tags (in the order given, as an array column).
 */
import { createHash } from 'node:crypto';
import type { RollupGranularity, VerificationRecord } from './records.js';
import { columnsOf, type VerificationColumns } from './verification-columns.js';

export const GRANULARITIES: readonly RollupGranularity[] = ['minute', 'hour', 'day', 'month'];

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Start of the UTC bucket of `granularity` that contains `ms`. */
export function bucketStart(granularity: RollupGranularity, ms: number): number {
  switch (granularity) {
    case 'minute': return Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    case 'hour': return Math.floor(ms / HOUR_MS) * HOUR_MS;
    case 'day': return Math.floor(ms / DAY_MS) * DAY_MS;
    case 'month': {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
  }
}

/** Positional dimensions: [apiId, keyId, identityId, externalId, outcome, tags]. */
export type RollupDims = readonly [string, string, string | null, string | null, string, readonly string[] | null];

/**
 * A combination of dimensions as the rollups know it: parsed, with its digest, and the row it last
 * added to (a shortcut past the maps of RollupSums for the rows a batch adds to again and again).
 */
interface NamedDims {
  readonly json: string;
  readonly dims: RollupDims;
  readonly digest: string;
  /** The row of RollupSums `rowSums` (its serial) this combination last added to. */
  row: RollupDelta | null;
  rowSums: number;
}

/**
 * Dimensions and their digest by their JSON (the columns' `dims` entries), and by the id the
 * columns give them (VerificationColumns.dimIds), kept across batches: a digest per distinct
 * combination, not per record. Bounded; cleared when full (a miss only costs the digest again).
 */
const known = new Map<string, NamedDims>();
const knownById = new Map<number, NamedDims>();
const KNOWN_MAX = 100_000;

function namedDims(json: string, id: number | undefined): NamedDims {
  if (id !== undefined) {
    // The id is a hint (columns of another thread's builder may reuse it): the JSON decides.
    const byId = knownById.get(id);
    if (byId !== undefined && byId.json === json) return byId;
  }
  let named = known.get(json);
  if (named === undefined) {
    // A row's name is the SHA-1 of its dimensions' JSON: short and fixed-length (tags can be 10 KB).
    named = { json, dims: JSON.parse(json) as RollupDims, digest: createHash('sha1').update(json).digest('base64url'), row: null, rowSums: -1 };
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(json, named);
  }
  if (id !== undefined) {
    if (knownById.size >= KNOWN_MAX) knownById.clear();
    knownById.set(id, named);
  }
  return named;
}

/** What one batch adds to one rollup row. */
export interface RollupDelta {
  readonly granularity: RollupGranularity;
  readonly time: number;
  readonly dims: RollupDims;
  readonly digest: string;
  count: number;
  spentCredits: number;
  latencySum: number;
  latencyCount: number;
}

/** The batch summed per (granularity, bucket, dimensions); one digest per distinct dimensions. */
export function rollupDeltas(records: readonly VerificationRecord[], granularities: readonly RollupGranularity[] = GRANULARITIES): RollupDelta[] {
  return columnRollupDeltas(columnsOf(records), granularities);
}

/** Serials of RollupSums, for NamedDims.rowSums: a number, so no combination keeps a whole RollupSums alive. */
let nextSums = 0;

/**
 * Increments summed by granularity, bucket and dimensions. Keyed by bucket start and then by
 * digest: the digests are the cached strings of namedDims, whose hashes V8 keeps, so adding to a
 * row builds no string and hashes none.
 */
export class RollupSums {
  private readonly rows = new Map<RollupGranularity, Map<number, Map<string, RollupDelta>>>();
  private readonly serial = nextSums++;
  /** Rows held. */
  size = 0;

  /** Returns the row added to. */
  add(granularity: RollupGranularity, time: number, dims: RollupDims, digest: string,
    count: number, spentCredits: number, latencySum: number, latencyCount: number): RollupDelta {
    let buckets = this.rows.get(granularity);
    if (buckets === undefined) this.rows.set(granularity, buckets = new Map());
    let bucket = buckets.get(time);
    if (bucket === undefined) buckets.set(time, bucket = new Map());
    const row = bucket.get(digest);
    if (row === undefined) {
      const added: RollupDelta = { granularity, time, dims, digest, count, spentCredits, latencySum, latencyCount };
      bucket.set(digest, added);
      this.size++;
      return added;
    }
    addTo(row, count, spentCredits, latencySum, latencyCount);
    return row;
  }

  /** The rows held, in no particular order (a loop: they may be too many for push(...rows)). */
  *values(): Generator<RollupDelta> {
    for (const buckets of this.rows.values()) for (const bucket of buckets.values()) yield* bucket.values();
  }

  /**
   * Adds the records of `c` to their rows of each of `granularities`: each record adds to its
   * combination's sums of its minute (typed arrays, no object or string per record); rows are
   * touched once per combination and minute.
   */
  addColumns(c: VerificationColumns, granularities: readonly RollupGranularity[]): void {
    const width = c.dims.length * SUMS;
    const byMinute = new Map<number, Float64Array>();
    let minute = Number.NaN;
    let sums: Float64Array = new Float64Array(0);
    for (let i = 0; i < c.count; i++) {
      const time = c.times[i]!;
      if (!(time >= minute && time < minute + MINUTE_MS)) {
        minute = bucketStart('minute', time);
        let found = byMinute.get(minute);
        if (found === undefined) byMinute.set(minute, found = new Float64Array(width));
        sums = found;
      }
      const at = c.dimIndex[i]! * SUMS;
      sums[at]! += 1;
      sums[at + 1]! += c.spent[i]!;
      const latency = c.latencies[i]!;
      if (!Number.isNaN(latency)) {
        sums[at + 2]! += latency;
        sums[at + 3]! += 1;
      }
    }
    if (byMinute.size === 0) return;
    const ids = c.dimIds;
    const named = c.dims.map((json, d) => namedDims(json, ids?.[d]));
    const first = granularities[0];
    for (const [start, s] of byMinute) {
      const starts = granularities.map((g) => bucketStart(g, start));
      for (let d = 0; d < named.length; d++) {
        const at = d * SUMS;
        if (s[at] === 0) continue;
        const n = named[d]!;
        // The first granularity's row (the minute's, for the recorder) is mostly the one this
        // combination added to last time: then it is added to without the three map lookups.
        const last = n.row;
        if (last !== null && n.rowSums === this.serial && last.time === starts[0] && last.granularity === first) {
          addTo(last, s[at]!, s[at + 1]!, s[at + 2]!, s[at + 3]!);
        }
        else if (first !== undefined) {
          n.row = this.add(first, starts[0]!, n.dims, n.digest, s[at]!, s[at + 1]!, s[at + 2]!, s[at + 3]!);
          n.rowSums = this.serial;
        }
        for (let g = 1; g < granularities.length; g++) {
          this.add(granularities[g]!, starts[g]!, n.dims, n.digest, s[at]!, s[at + 1]!, s[at + 2]!, s[at + 3]!);
        }
      }
    }
  }
}

/** Sums per record: count, spent credits, latency sum, latencies. */
const SUMS = 4;

function addTo(row: RollupDelta, count: number, spentCredits: number, latencySum: number, latencyCount: number): void {
  row.count += count;
  row.spentCredits += spentCredits;
  row.latencySum += latencySum;
  row.latencyCount += latencyCount;
}

/** The rollup increments of some columns. */
export function columnRollupDeltas(c: VerificationColumns, granularities: readonly RollupGranularity[] = GRANULARITIES): RollupDelta[] {
  const sums = new RollupSums();
  sums.addColumns(c, granularities);
  return [...sums.values()];
}

/** A stored rollup row from its dimensions and sums (optional fields absent when empty). */
export function rollupRow(time: number, [apiId, keyId, identityId, externalId, outcome, tags]: RollupDims,
  sums: { count: number; spentCredits: number; latencySum: number; latencyCount: number }) {
  return {
    time, apiId, keyId, outcome,
    ...(identityId !== null ? { identityId } : {}),
    ...(externalId !== null ? { externalId } : {}),
    ...(tags !== null ? { tags } : {}),
    ...sums,
  };
}
