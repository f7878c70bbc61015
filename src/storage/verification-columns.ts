/**
 * Verification records in columns: numbers in typed arrays, and the repeated strings (API, key,
 * identity, outcome, tags) once per batch as JSON with an index per record. This is how records
 * travel from verifyKey to the writer thread (the arrays are moved, not copied) and how the stores
 * take them: blocks, rollups and the writer's bookkeeping are worked out from the columns, with no
 * object per record on the way.
 */
import type { VerificationRecord } from './records.js';

/** Structured-clone friendly: it crosses to the writer thread as it is. */
export interface VerificationColumns {
  readonly count: number;
  readonly times: Float64Array;
  readonly spent: Float64Array;
  /** NaN: no latency recorded. */
  readonly latencies: Float64Array;
  /** Index into `dims` per record. */
  readonly dimIndex: Uint32Array;
  /** Each distinct combination of dimensions once, as the JSON of a `Dims` tuple. */
  readonly dims: readonly string[];
  /**
   * Per entry of `dims`, a number the builder gave that combination, the same in its later
   * batches: a reader that keeps something per combination finds it by this number instead of
   * hashing the JSON (a new string in every batch that crossed from another thread). A hint, not a
   * name: ids of different builders' threads may collide, so a reader checks the JSON it finds.
   */
  readonly dimIds?: Uint32Array;
  /**
   * The request ids, UTF-8, one after another (record i's ends at `requestIdEnds[i]` and starts
   * where the one before ends): moved to the writer thread with the other arrays, so handing over a
   * batch costs the event loop nothing per record (a string per record would be copied across).
   */
  readonly requestIdBytes: Uint8Array;
  readonly requestIdEnds: Uint32Array;
}

/** Reads the columns' request ids: `(i) => record i's`. */
export function requestIdReader(c: VerificationColumns): (i: number) => string {
  const bytes = Buffer.from(c.requestIdBytes.buffer, c.requestIdBytes.byteOffset, c.requestIdBytes.byteLength);
  const ends = c.requestIdEnds;
  return (i) => bytes.toString('utf8', i === 0 ? 0 : ends[i - 1]!, ends[i]!);
}

/** Bytes of record `i`'s request id. */
export const requestIdBytesOf = (c: VerificationColumns, i: number): number => c.requestIdEnds[i]! - (i === 0 ? 0 : c.requestIdEnds[i - 1]!);

/** Combinations of dimensions the builder remembers across batches before it starts afresh (bounds memory). */
const KNOWN_DIMS = 20_000;

/** Room per request id the builder starts with (keygate's are 21 bytes; it grows for longer ones). */
const ID_BYTES = 32;

export type Dims = [apiId: string, keyId: string, identityId: string | null, externalId: string | null, outcome: string, tags: readonly string[] | null];

const SEP = '\u0001';
/** Marks an absent identity (never part of an id). */
const ABSENT = '\u0003';

/**
 * Where a caller keeps, per combination of dimensions, what the builder learned about it: a
 * verification passes its key's slot for its outcome, so a key verified again is neither
 * described as a string nor looked up in a Map.
 */
export interface DimsSlot {
  /** Set by the builder. */
  dims?: KnownDims;
}

/** A combination of dimensions as a builder knows it: its JSON, its id, its place in the current batch. */
interface KnownDims {
  readonly json: string;
  readonly id: number;
  batch: number;
  index: number;
}

/**
 * Ids of combinations, drawn once per combination object (a slot's, or a builder's own map's) for
 * the whole thread: the same combination may get more than one id (a slot made anew); ids wrap
 * after 2^32.
 */
let nextDimsId = 0;
const knownDims = (json: string): KnownDims => ({ json, id: (nextDimsId = (nextDimsId + 1) >>> 0), batch: -1, index: 0 });

export class ColumnsBuilder {
  private times: Float64Array;
  private spent: Float64Array;
  private latencies: Float64Array;
  private dimIndex: Uint32Array;
  private dims: string[] = [];
  private dimIds: number[] = [];
  /**
   * Every combination of dimensions seen, with its JSON and its index in the current batch (if
   * `batch` is the current one): across batches, so a key verified again costs no JSON. Cleared
   * when it reaches KNOWN_DIMS entries.
   */
  private readonly known = new Map<string, KnownDims>();
  private batch = 0;
  private idBytes: Buffer;
  private readonly idEnds: Uint32Array;
  private idAt = 0;
  count = 0;

  constructor(private readonly capacity: number) {
    this.times = new Float64Array(capacity);
    this.spent = new Float64Array(capacity);
    this.latencies = new Float64Array(capacity);
    this.dimIndex = new Uint32Array(capacity);
    this.idBytes = Buffer.alloc(capacity * ID_BYTES);
    this.idEnds = new Uint32Array(capacity);
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
    this.addRequestId(i, r.requestId);
    const dims = slot === undefined ? this.lookUp(r) : (slot.dims ??= knownDims(dimsJson(r)));
    if (dims.batch !== this.batch) {
      dims.batch = this.batch;
      dims.index = this.dims.length;
      this.dims.push(dims.json);
      this.dimIds.push(dims.id);
    }
    this.dimIndex[i] = dims.index;
  }

  /** Copies the id's bytes: a character per byte while it is ASCII (keygate's own ids), else UTF-8. */
  private addRequestId(i: number, id: string): void {
    if (this.idAt + id.length * 3 > this.idBytes.length) {
      const grown = Buffer.alloc(Math.max(this.idBytes.length * 2, this.idAt + id.length * 3));
      grown.set(this.idBytes.subarray(0, this.idAt));
      this.idBytes = grown;
    }
    const bytes = this.idBytes;
    let at = this.idAt;
    for (let k = 0; k < id.length; k++) {
      const code = id.charCodeAt(k);
      if (code >= 0x80) {
        at = this.idAt + bytes.write(id, this.idAt, 'utf8');
        break;
      }
      bytes[at++] = code;
    }
    this.idAt = at;
    this.idEnds[i] = at;
  }

  private lookUp(r: VerificationRecord): KnownDims {
    // Tags are free text, hence JSON (no separator can be forged inside it).
    const key = `${r.apiId}${SEP}${r.keyId}${SEP}${r.identityId ?? ABSENT}${SEP}${r.externalId ?? ABSENT}${SEP}${r.outcome}${r.tags === undefined ? '' : SEP + JSON.stringify(r.tags)}`;
    let dims = this.known.get(key);
    if (dims === undefined) {
      if (this.known.size >= KNOWN_DIMS) this.known.clear();
      dims = knownDims(dimsJson(r));
      this.known.set(key, dims);
    }
    return dims;
  }

  /** The columns so far (their arrays are handed over); the builder starts afresh. */
  take(): VerificationColumns {
    const n = this.count;
    const columns: VerificationColumns = {
      count: n, times: this.times.slice(0, n), spent: this.spent.slice(0, n), latencies: this.latencies.slice(0, n),
      dimIndex: this.dimIndex.slice(0, n), dims: this.dims, dimIds: Uint32Array.from(this.dimIds),
      // Copies in arrays of their own: those are moved to the writer, the builder's are reused.
      requestIdBytes: new Uint8Array(this.idBytes.subarray(0, this.idAt)), requestIdEnds: this.idEnds.slice(0, n),
    };
    this.count = 0;
    this.dims = [];
    this.dimIds = [];
    this.batch++;
    this.idAt = 0;
    return columns;
  }
}

const dimsJson = (r: VerificationRecord): string =>
  JSON.stringify([r.apiId, r.keyId, r.identityId ?? null, r.externalId ?? null, r.outcome, r.tags ?? null] satisfies Dims);

export const NO_COLUMNS: VerificationColumns = {
  count: 0, times: new Float64Array(0), spent: new Float64Array(0), latencies: new Float64Array(0), dimIndex: new Uint32Array(0), dims: [],
  requestIdBytes: new Uint8Array(0), requestIdEnds: new Uint32Array(0),
};

/** Records as columns, in their order (stores take columns; tests and tools hand records). */
export function columnsOf(records: readonly VerificationRecord[]): VerificationColumns {
  if (records.length === 0) return NO_COLUMNS;
  const builder = new ColumnsBuilder(records.length);
  for (const r of records) builder.add(r);
  return builder.take();
}

/** The arrays to transfer rather than copy. */
export const transferables = (c: VerificationColumns): ArrayBuffer[] =>
  [c.times.buffer, c.spent.buffer, c.latencies.buffer, c.dimIndex.buffer, c.requestIdBytes.buffer, c.requestIdEnds.buffer,
    ...(c.dimIds === undefined ? [] : [c.dimIds.buffer])] as ArrayBuffer[];

/**
 * The record indexes in time order (equal times keep column order). Records arrive nearly in
 * time order, so the common case is one pass and no sort.
 */
export function timeOrder(c: VerificationColumns): Uint32Array {
  const order = new Uint32Array(c.count);
  let sorted = true;
  for (let i = 0; i < c.count; i++) {
    order[i] = i;
    if (i > 0 && c.times[i]! < c.times[i - 1]!) sorted = false;
  }
  if (!sorted) order.sort((a, b) => c.times[a]! - c.times[b]! || a - b);
  return order;
}
