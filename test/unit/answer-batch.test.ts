/**
 * Holding answers on a busy event loop (src/server/answer-batch.ts): a quiet server writes each
 * answer at once; after a turn of BUSY_TURN answers or more the next turn's answers are held and
 * written together, in order, right after that turn; an answer whose client left is counted and
 * logged but not written.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { AnswerBatch, BUSY_TURN } from '../../src/server/answer-batch.js';
import type { Reply } from '../../src/server/reply.js';
import type { ConnectionState, RequestInfo } from '../../src/server/request.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function setup() {
  const written: string[] = [];
  const accounted: { id: string; at: number }[] = [];
  const batch = new AnswerBatch(
    (res, info) => {
      if (!(res as unknown as { corked: boolean }).corked) written.push(`uncorked ${info.requestId}`);
      written.push(info.requestId);
    },
    (info, _reply, _label, _stats, at) => { accounted.push({ id: info.requestId, at }); },
  );
  const response = (): HttpResponse => {
    const res = { corked: false, cork(write: () => void) { res.corked = true; write(); res.corked = false; return res; } };
    return res as unknown as HttpResponse;
  };
  const info = (id: string): RequestInfo => ({ requestId: id }) as RequestInfo;
  const reply: Reply = { status: 200, contentType: 'application/json', body: '{}' };
  /** One answer as the server makes it: held when the batch says so, else written at once. */
  const answer = (id: string, state: ConnectionState = { aborted: false }): boolean => {
    if (batch.take()) {
      batch.add(response(), state, info(id), reply, 'keys.verifyKey', undefined);
      return true;
    }
    written.push(id);
    return false;
  };
  return { batch, written, accounted, answer };
}

describe('answer batch', () => {
  it('a quiet loop answers at once, turn after turn', async () => {
    const { written, answer } = setup();
    for (let turn = 0; turn < 3; turn++) {
      const held = Array.from({ length: BUSY_TURN - 1 }, (_, i) => answer(`t${turn}-${i}`));
      expect(held.every((h) => !h)).toBe(true);
      await nextTurn();
    }
    expect(written).toHaveLength(3 * (BUSY_TURN - 1));
  });

  it('after a busy turn the next turn is held, written in order in one go with one clock reading', async () => {
    const { batch, written, accounted, answer } = setup();
    for (let i = 0; i < BUSY_TURN; i++) expect(answer(`busy-${i}`)).toBe(false);
    await nextTurn();
    written.length = 0;
    const gone: ConnectionState = { aborted: false };
    expect(answer('a')).toBe(true);
    expect(answer('b', gone)).toBe(true);
    expect(answer('c')).toBe(true);
    expect(batch.size).toBe(3);
    gone.aborted = true; // the client left before the turn ended
    expect(written).toEqual([]);
    await nextTurn();
    expect(written).toEqual(['a', 'c']);
    expect(accounted.map((a) => a.id)).toEqual(['a', 'b', 'c']);
    expect(new Set(accounted.map((a) => a.at)).size).toBe(1);
    expect(batch.size).toBe(0);
  });

  it('holding stops after a quiet turn', async () => {
    const { written, answer } = setup();
    for (let i = 0; i < BUSY_TURN; i++) answer(`busy-${i}`);
    await nextTurn();
    expect(answer('held')).toBe(true);
    await nextTurn();
    expect(answer('at once')).toBe(false);
    expect(written.slice(-2)).toEqual(['held', 'at once']);
  });
});
