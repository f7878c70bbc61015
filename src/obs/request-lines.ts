/**
 * The per-request log lines at info, kept as their values when a request is answered and written
 * out as bytes only when the log sink sends (at most every 50 ms, log-sink.ts). Answering a
 * request then costs a few stores; the lines of a whole batch are formatted in one loop, where the
 * constant parts and the current millisecond's digits stay warm, instead of one line at a time
 * between requests.
 *
 * The shape is pino's own JSON: every field is keygate's own (an id it minted, a procedure name
 * from its route table, a status, a number), so there is nothing to redact, and all of it is ASCII.
 */
import { ByteWriter, utf8 } from '../util/json-bytes.js';

/**
 * Lines held before they are formatted whatever the timer: about one of the sink's 64 KiB chunks
 * (a line is about 170 bytes), so a busy server still writes its lines in chunks of that size.
 */
const CAPACITY = 384;
/** Formatted bytes handed to the sink at a time. */
const PIECE_BYTES = 32 * 1024;

const HEAD = utf8('{"level":30,"time":');
const ID_HEAD = utf8(',"service":"keygate","requestId":"');
const TAIL = utf8(',"msg":"request"}\n');

/** What the sink offers held lines: a wake-up when the first line is held, and a place for their bytes. */
export interface HeldLinesSink {
  /** The first line is held: make sure a send follows within the sink's flush interval. */
  wake(): void;
  /** Send now, formatting what is held first (the capacity is reached). */
  sendNow(): void;
  /** Bytes of whole lines, copied before it returns. */
  gather(bytes: Uint8Array): void;
}

export class RequestLines {
  private count = 0;
  private readonly ids: string[] = new Array<string>(CAPACITY).fill('');
  private readonly procedures: string[] = new Array<string>(CAPACITY).fill('');
  private readonly statuses = new Uint16Array(CAPACITY);
  private readonly durations = new Float64Array(CAPACITY);
  /** performance.now() when answered: turned into wall-clock ms at formatting, with one Date.now() per batch. */
  private readonly answeredAt = new Float64Array(CAPACITY);
  /** Per procedure and status, the bytes between the request id and the duration, encoded once. */
  private readonly middles = new Map<string, Map<number, Uint8Array>>();
  private readonly out = new ByteWriter();
  private readonly timeText = new ByteWriter();

  constructor(private readonly sink: HeldLinesSink) {}

  get held(): number {
    return this.count;
  }

  /** A line for a request answered at `answeredAt` (performance.now()), `durationMs` after it began. */
  add(requestId: string, procedure: string, status: number, durationMs: number, answeredAt: number): void {
    const n = this.count;
    this.ids[n] = requestId;
    this.procedures[n] = procedure;
    this.statuses[n] = status;
    this.durations[n] = durationMs;
    this.answeredAt[n] = answeredAt;
    this.count = n + 1;
    if (n === 0) this.sink.wake();
    else if (n + 1 === CAPACITY) this.sink.sendNow();
  }

  /** Formats every held line, in order, into the sink; none is held after. */
  formatInto(sink: HeldLinesSink): void {
    const count = this.count;
    if (count === 0) return;
    this.count = 0;
    const { ids, procedures, statuses, durations, answeredAt, out } = this;
    // Wall-clock ms of a performance.now() reading, as Date.now() would have said then.
    const epochOffset = Date.now() - performance.now();
    let lastProcedure = '';
    let lastStatus = -1;
    let middle = HEAD;
    let lastTime = -1;
    let prefix = HEAD;
    out.reset();
    for (let i = 0; i < count; i++) {
      // Lines come in the order they were answered, many within one millisecond: the line's start
      // up to the request id is made once per millisecond, and copied whole.
      const time = Math.floor(epochOffset + answeredAt[i]!);
      if (time !== lastTime) {
        prefix = this.prefixOf(time);
        lastTime = time;
      }
      out.bytes(prefix);
      out.ascii(ids[i]!);
      const procedure = procedures[i]!;
      const status = statuses[i]!;
      if (procedure !== lastProcedure || status !== lastStatus) {
        middle = this.middleOf(procedure, status);
        lastProcedure = procedure;
        lastStatus = status;
      }
      out.bytes(middle);
      out.milliseconds(durations[i]!);
      out.bytes(TAIL);
      if (out.size >= PIECE_BYTES) {
        sink.gather(out.written());
        out.reset();
      }
    }
    if (out.size > 0) sink.gather(out.written());
    out.reset();
  }

  /** `{"level":30,"time":<time>,"service":"keygate","requestId":"` */
  private prefixOf(time: number): Uint8Array {
    const text = this.timeText;
    text.reset().bytes(HEAD);
    text.number(time);
    text.bytes(ID_HEAD);
    return text.written();
  }

  private middleOf(procedure: string, status: number): Uint8Array {
    let byStatus = this.middles.get(procedure);
    if (byStatus === undefined) this.middles.set(procedure, byStatus = new Map());
    let middle = byStatus.get(status);
    if (middle === undefined) byStatus.set(status, middle = utf8(`","procedure":${JSON.stringify(procedure)},"status":${status},"durationMs":`));
    return middle;
  }
}
