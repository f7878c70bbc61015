/**
 * Reading lua/ratelimit-check.lua's reply (src/ratelimit/redis-check-call.ts): the script returns
 * verdicts and the counters' states, the limiter replays the groups on them. A group whose replay
 * disagrees with the script's verdict fails alone; the others are answered.
 */
import { describe, expect, it } from 'vitest';
import { decodeCheckReply, encodeCheckCall, type KeyedCheck } from '../../src/ratelimit/redis-check-call.js';

const NOW = 1_700_000_040_500;
const SEQ = Math.floor(NOW / 1000);
const check = (key: string, limit: number, cost: number): KeyedCheck => ({ key, hash: 'h', slot: 0, check: { counter: key, limit, durationMs: 1000, cost } });

/** The script's reply: now, a '1'/'0' per group, each counter's stored state (null: none) as three little-endian int64. */
function reply(now: number, verdicts: string, states: ({ s: number; c: number; p: number } | null)[]): Buffer {
  const out = Buffer.alloc(8 + verdicts.length + 24 * states.length);
  out.writeBigInt64LE(BigInt(now), 0);
  out.write(verdicts, 8, 'latin1');
  states.forEach((state, i) => {
    if (!state) return;
    const at = 8 + verdicts.length + 24 * i;
    out.writeBigInt64LE(BigInt(state.s), at);
    out.writeBigInt64LE(BigInt(state.c), at + 8);
    out.writeBigInt64LE(BigInt(state.p), at + 16);
  });
  return out;
}

describe('decodeCheckReply', () => {
  it('replays groups in order on the returned states: remaining, reset and the state after each group', () => {
    const groups = [[check('a', 5, 3)], [check('a', 5, 3)], [check('a', 6, 2), check('b', 1, 1)]];
    const call = encodeCheckCall(groups, NOW, 0);
    // a: s = SEQ, c = 1 before the call; b: nothing stored.
    const decoded = decodeCheckReply(reply(NOW, '101', [{ s: SEQ, c: 1, p: 0 }, null]), groups, call);
    const [first, second, third] = decoded.groups;
    expect(first).toMatchObject({ passed: true, results: [{ passed: true, remaining: 1, resetAtMs: (SEQ + 1) * 1000, state: { s: SEQ, c: 4, p: 0 } }] });
    expect(second).toMatchObject({ passed: false, results: [{ passed: false, remaining: 0, state: { c: 4 } }] });
    expect(third).toMatchObject({ passed: true, results: [{ passed: true, remaining: 0, state: { c: 6 } }, { passed: true, remaining: 0, state: { c: 1 } }] });
  });

  it('a group whose replay disagrees with the verdict is an error, and later groups follow what Redis committed', () => {
    const groups = [[check('a', 5, 1)], [check('b', 5, 1)], [check('a', 5, 4)]];
    const call = encodeCheckCall(groups, NOW, 0);
    // The script says group 1 was denied although a had room: it committed nothing there.
    const decoded = decodeCheckReply(reply(NOW, '011', [null, null]), groups, call);
    expect(decoded.groups[0]).toBeInstanceOf(Error);
    expect(decoded.groups[1]).toMatchObject({ passed: true, results: [{ remaining: 4 }] });
    // Had group 1 been counted, 1 + 4 would leave 0; Redis holds 0 + 4.
    expect(decoded.groups[2]).toMatchObject({ passed: true, results: [{ remaining: 1, state: { c: 4 } }] });
  });

  it('rotates each stored state to the script\'s time: last window\'s count weighs in, older ones are gone', () => {
    const groups = [[check('a', 10, 1), check('b', 10, 1)]];
    const call = encodeCheckCall(groups, NOW, 0);
    // Half of the window has passed: a's previous window (8) weighs floor(8 · 0.5) = 4; b's is two windows old.
    const decoded = decodeCheckReply(reply(NOW, '1', [{ s: SEQ - 1, c: 8, p: 3 }, { s: SEQ - 2, c: 9, p: 9 }]), groups, call);
    expect(decoded.groups[0]).toMatchObject({
      passed: true,
      results: [{ remaining: 5, resetAtMs: (SEQ + 1) * 1000, state: { s: SEQ, c: 1, p: 8 } }, { remaining: 9, state: { s: SEQ, c: 1, p: 0 } }],
    });
  });

  it('a reply of the wrong length, or not a string, fails the whole call', () => {
    const groups = [[check('a', 5, 1)]];
    const call = encodeCheckCall(groups, NOW, 0);
    expect(() => decodeCheckReply(reply(NOW, '1', []), groups, call)).toThrow(/expected 33 bytes/);
    expect(() => decodeCheckReply([NOW, 1, SEQ, 0, 0], groups, call)).toThrow(/expected 33 bytes/);
  });
});
