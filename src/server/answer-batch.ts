/**
 * Answers made in their request's own callback: held and written together once the event loop has
 * read every socket that was ready (setImmediate runs right after libuv's poll phase) while the
 * loop is busy, and written at once while it keeps up.
 *
 * Why: an answer written at once reaches a client that has usually gone back to waiting since the
 * previous one, and the kernel wakes it on the sender's CPU (on a VM a costly interrupt to the
 * other core). Written together, a busy client (an API's process, a load generator) is
 * woken about once per turn and finds the other answers already there. The wait this adds is the
 * rest of that turn, so answers are held only after a turn that answered BUSY_TURN or more: a
 * lightly loaded server, and the first turn after a pause, answer at once.
 */
import type { HttpResponse } from 'uWebSockets.js';
import type { ConnectionState, RequestInfo } from './request.js';
import type { Reply } from './reply.js';
import type { RequestStats } from '../obs/metrics.js';

/** Writes one answer; called inside the response's cork. */
export type WriteAnswer = (res: HttpResponse, info: RequestInfo, reply: Reply) => void;
/** Counts and logs one answer, as answered at `answeredAt` (performance.now()). */
export type AccountAnswer = (info: RequestInfo, reply: Reply, label: string, stats: RequestStats | undefined, answeredAt: number) => void;

/** Answers in one turn of the event loop from which the next turn's answers are held. */
export const BUSY_TURN = 32;

/** Values per held answer in `held`: response, connection state, request, reply, label, stats. */
const STRIDE = 6;

export class AnswerBatch {
  /** Flat, STRIDE values per answer: no object per answer. */
  private readonly held: unknown[] = [];
  // The answer being written, for the one cork callback made at construction (none per answer).
  private res: HttpResponse | null = null;
  private info: RequestInfo | null = null;
  private reply: Reply | null = null;
  private readonly writeCurrent = (): void => this.write(this.res!, this.info!, this.reply!);
  private readonly endTurn = (): void => this.turnEnded();
  /** Answers made this turn, held or not. */
  private answered = 0;
  private holding = false;

  constructor(private readonly write: WriteAnswer, private readonly account: AccountAnswer) {}

  get size(): number {
    return this.held.length / STRIDE;
  }

  /** Counts an answer; true when it is to be held (add) rather than written now. */
  take(): boolean {
    if (this.answered++ === 0) setImmediate(this.endTurn);
    return this.holding;
  }

  add(res: HttpResponse, state: ConnectionState, info: RequestInfo, reply: Reply, label: string, stats: RequestStats | undefined): void {
    this.held.push(res, state, info, reply, label, stats);
  }

  private turnEnded(): void {
    this.flush();
    this.holding = this.answered >= BUSY_TURN;
    this.answered = 0;
  }

  /** Writes every held answer, in the order they were made. */
  private flush(): void {
    const held = this.held;
    // One clock reading for the batch: its answers are written within microseconds of each other.
    const answeredAt = performance.now();
    try {
      for (let i = 0; i < held.length; i += STRIDE) {
        const info = held[i + 2] as RequestInfo;
        const reply = held[i + 3] as Reply;
        this.account(info, reply, held[i + 4] as string, held[i + 5] as RequestStats | undefined, answeredAt);
        // A client gone since its request was read: touching its response now would throw.
        if ((held[i + 1] as ConnectionState).aborted) continue;
        this.res = held[i] as HttpResponse;
        this.info = info;
        this.reply = reply;
        this.res.cork(this.writeCurrent);
      }
    } finally {
      // Emptied whatever happened: an answer is never written twice. Nothing is kept past the
      // batch either: a reply holds its caller's answer.
      held.length = 0;
      this.res = this.info = this.reply = null;
    }
  }
}
