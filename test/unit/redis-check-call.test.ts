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

describe('decodeCheckReply', () => {
  it('replays groups in order on the returned states: remaining, reset and the state after each group', () => {
    const groups = [[check('a', 5, 3)], [check('a', 5, 3)], [check('a', 6, 2), check('b', 1, 1)]];
    const call = encodeCheckCall(groups, NOW, 0);
    // a: s = SEQ, c = 1 before the call; b: nothing stored.
    const decoded = decodeCheckReply([NOW, 1, 0, 1, SEQ, 1, 0, SEQ, 0, 0], groups, call);
    const [first, second, third] = decoded.groups;
    expect(first).toMatchObject({ passed: true, results: [{ passed: true, remaining: 1, resetAtMs: (SEQ + 1) * 1000, state: { s: SEQ, c: 4, p: 0 } }] });
    expect(second).toMatchObject({ passed: false, results: [{ passed: false, remaining: 0, state: { c: 4 } }] });
    expect(third).toMatchObject({ passed: true, results: [{ passed: true, remaining: 0, state: { c: 6 } }, { passed: true, remaining: 0, state: { c: 1 } }] });
  });

  it('a group whose replay disagrees with the verdict is an error, and later groups follow what Redis committed', () => {
    const groups = [[check('a', 5, 1)], [check('b', 5, 1)], [check('a', 5, 4)]];
    const call = encodeCheckCall(groups, NOW, 0);
    // The script says group 1 was denied although a had room: it committed nothing there.
    const decoded = decodeCheckReply([NOW, 0, 1, 1, SEQ, 0, 0, SEQ, 0, 0], groups, call);
    expect(decoded.groups[0]).toBeInstanceOf(Error);
    expect(decoded.groups[1]).toMatchObject({ passed: true, results: [{ remaining: 4 }] });
    // Had group 1 been counted, 1 + 4 would leave 0; Redis holds 0 + 4.
    expect(decoded.groups[2]).toMatchObject({ passed: true, results: [{ remaining: 1, state: { c: 4 } }] });
  });

  it('a reply of the wrong length fails the whole call', () => {
    const groups = [[check('a', 5, 1)]];
    expect(() => decodeCheckReply([NOW, 1, SEQ, 0], groups, encodeCheckCall(groups, NOW, 0))).toThrow(/expected 5/);
  });
});
