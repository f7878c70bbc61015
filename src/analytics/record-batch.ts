/**
 * Verification records on their way to the writer thread, in columns: numbers in typed arrays
 * (moved to the thread, not copied), and the repeated strings (API, key, identity, outcome, tags)
 * once per batch with an index per record. Posting a batch of record objects made the event loop
 * copy every object for the thread; this costs a few array writes per verification instead.
 */
import { verificationRecord, type VerificationRecord } from '../storage/records.js';

/** What crosses to the thread (structured-clone friendly). */
export interface PackedBatch {
  readonly count: number;
  readonly times: Float64Array;
  readonly spent: Float64Array;
  /** NaN: no latency recorded. */
  readonly latencies: Float64Array;
  /** Index into `dims` per record. */
  readonly dimIndex: Uint32Array;
  /** Each distinct [apiId, keyId, identityId, externalId, outcome, tags] once, as JSON. */
  readonly dims: string[];
  readonly requestIds: string[];
}

const SEP = '\u0001';
/** Marks an absent identity (never part of an id). */
const ABSENT = '\u0003';
type Dims = [apiId: string, keyId: string, identityId: string | null, externalId: string | null, outcome: string, tags: readonly string[] | null];

/**
 * Where a caller keeps, per combination of dimensions, what the builder learned about it: a
 * verification passes its key's slot for its outcome, so a key verified again is neither
 * described as a string nor looked up in a Map.
 */
export interface DimsSlot {
  /** Set by the builder. */
  dims?: { readonly json: string; batch: number; index: number };
}

export class RecordBatchBuilder {
  private times: Float64Array;
  private spent: Float64Array;
  private latencies: Float64Array;
  private dimIndex: Uint32Array;
  private dims: string[] = [];
  /**
   * Every combination of dimensions seen, with its JSON and its index in the current batch (if
   * `batch` is the current one): across batches, so a key verified again costs no JSON. Cleared
   * when it reaches `capacity` × 10 entries.
   */
  private readonly known = new Map<string, { readonly json: string; batch: number; index: number }>();
  private batch = 0;
  private requestIds: string[] = [];
  count = 0;

  constructor(private readonly capacity: number) {
    this.times = new Float64Array(capacity);
    this.spent = new Float64Array(capacity);
    this.latencies = new Float64Array(capacity);
    this.dimIndex = new Uint32Array(capacity);
  }

  get full(): boolean {
    return this.count === this.capacity;
  }

  /** `slot`: the caller's slot for this record's dimensions (never with tags, which vary). */
  add(r: VerificationRecord, slot?: DimsSlot): void {
    const i = this.count++;
    this.times[i] = r.time;
    this.spent[i] = r.spentCredits;
    this.latencies[i] = r.latency ?? Number.NaN;
    this.requestIds.push(r.requestId);
    const dims = slot === undefined ? this.lookUp(r) : (slot.dims ??= { json: dimsJson(r), batch: -1, index: 0 });
    if (dims.batch !== this.batch) {
      dims.batch = this.batch;
      dims.index = this.dims.length;
      this.dims.push(dims.json);
    }
    this.dimIndex[i] = dims.index;
  }

  private lookUp(r: VerificationRecord): { readonly json: string; batch: number; index: number } {
    // The external id belongs to the identity, so ids, outcome and tags tell records apart; tags
    // are free text, hence JSON (no separator can be forged inside it).
    const key = `${r.apiId}${SEP}${r.keyId}${SEP}${r.identityId ?? ABSENT}${SEP}${r.outcome}${r.tags === undefined ? '' : SEP + JSON.stringify(r.tags)}`;
    let dims = this.known.get(key);
    if (dims === undefined) {
      if (this.known.size >= this.capacity * 10) this.known.clear();
      dims = { json: dimsJson(r), batch: -1, index: 0 };
      this.known.set(key, dims);
    }
    return dims;
  }

  /** The batch so far (its arrays are handed over); the builder starts afresh. */
  take(): PackedBatch {
    const n = this.count;
    const batch: PackedBatch = {
      count: n, times: this.times.slice(0, n), spent: this.spent.slice(0, n), latencies: this.latencies.slice(0, n),
      dimIndex: this.dimIndex.slice(0, n), dims: this.dims, requestIds: this.requestIds,
    };
    this.count = 0;
    this.dims = [];
    this.batch++;
    this.requestIds = [];
    return batch;
  }
}

const dimsJson = (r: VerificationRecord): string =>
  JSON.stringify([r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null] satisfies Dims);

/** The arrays to transfer rather than copy. */
export const transferables = (b: PackedBatch): ArrayBuffer[] =>
  [b.times.buffer, b.spent.buffer, b.latencies.buffer, b.dimIndex.buffer] as ArrayBuffer[];

/** The records of a packed batch, as the stores take them. */
export function unpackBatch(b: PackedBatch): VerificationRecord[] {
  const dims = b.dims.map((d) => {
    const [apiId, keyId, identityId, externalId, outcome, tags] = JSON.parse(d) as Dims;
    return { apiId, keyId, identityId, externalId, outcome, tags };
  });
  const out: VerificationRecord[] = new Array(b.count);
  for (let i = 0; i < b.count; i++) {
    const d = dims[b.dimIndex[i]!]!;
    const latency = b.latencies[i]!;
    out[i] = verificationRecord(b.times[i]!, b.requestIds[i]!, d.apiId, d.keyId, d.identityId, d.externalId, d.outcome, d.tags,
      b.spent[i]!, Number.isNaN(latency) ? null : latency);
  }
  return out;
}
