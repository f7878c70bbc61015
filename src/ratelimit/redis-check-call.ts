/**
 * The wire format of lua/ratelimit-check.lua and lua/ratelimit-refund.lua (see their headers):
 * builds KEYS/ARGV for a batch of groups in one slot and decodes the flat integer reply.
 */
import { pack } from 'msgpackr';
import type { WindowState } from './sliding-window.js';
import type { LimitCheck, LimitCheckResult } from './types.js';

/** A check with its Redis key and that key's Cluster slot. */
export interface KeyedCheck {
  readonly check: LimitCheck;
  readonly key: string;
  readonly slot: number;
}

export interface ScriptCall {
  readonly keys: string[];
  readonly args: (string | Buffer)[];
}

/** A check's result plus the counter's state after the group (a lower bound for the deny cache). */
export interface DecodedCheck extends LimitCheckResult {
  readonly state: WindowState;
}

export interface DecodedGroup {
  readonly passed: boolean;
  readonly results: DecodedCheck[];
}

export interface DecodedCall {
  /** The time the script used (server TIME or the override). */
  readonly nowMs: number;
  readonly groups: DecodedGroup[];
}

const FIELDS_PER_CHECK = 6;

/** KEYS lists each key once (a hot counter named by 100 groups is read once); checks index it. */
export function encodeCheckCall(groups: readonly (readonly KeyedCheck[])[], nowOverrideMs: number | undefined, ttlSlackMs: number): ScriptCall {
  const keys: string[] = [];
  const index = new Map<string, number>();
  const numbers: number[] = [groups.length];
  for (const group of groups) {
    numbers.push(group.length);
    for (const { key, check } of group) {
      let i = index.get(key);
      if (i === undefined) {
        i = keys.push(key);
        index.set(key, i);
      }
      numbers.push(i, check.limit, check.durationMs, check.cost);
    }
  }
  return { keys, args: [nowOverrideMs === undefined ? '' : String(nowOverrideMs), String(ttlSlackMs), pack(numbers)] };
}

export function decodeCheckReply(reply: unknown, groups: readonly (readonly KeyedCheck[])[]): DecodedCall {
  const expected = 1 + groups.reduce((n, g) => n + 1 + g.length * FIELDS_PER_CHECK, 0);
  if (!Array.isArray(reply) || reply.length !== expected) {
    throw new Error(`ratelimit-check returned ${Array.isArray(reply) ? reply.length : typeof reply} values, expected ${expected}`);
  }
  const values = reply as number[];
  let at = 1;
  const decoded = groups.map((group) => {
    const passed = values[at++] === 1;
    const results = group.map(({ check }): DecodedCheck => {
      const [own, remaining, resetAtMs, retry, c, p] = values.slice(at, at + FIELDS_PER_CHECK) as [number, number, number, number, number, number];
      at += FIELDS_PER_CHECK;
      return {
        passed: own === 1,
        limit: check.limit,
        remaining,
        resetAtMs,
        retryAfterMs: retry < 0 ? Number.POSITIVE_INFINITY : retry,
        state: { s: resetAtMs / check.durationMs - 1, c, p },
      };
    });
    return { passed, results };
  });
  return { nowMs: values[0]!, groups: decoded };
}

/**
 * The refund of a committed part: per key, the window its cost went into and the summed cost
 * (a counter named twice in a group committed both mentions).
 */
export function encodeRefundCall(part: readonly KeyedCheck[], results: readonly LimitCheckResult[]): ScriptCall | null {
  const perKey = new Map<string, { seq: number; cost: number }>();
  part.forEach(({ key, check }, i) => {
    if (check.cost === 0) return;
    const seq = results[i]!.resetAtMs / check.durationMs - 1;
    const entry = perKey.get(key) ?? { seq, cost: 0 };
    entry.cost += check.cost;
    perKey.set(key, entry);
  });
  if (perKey.size === 0) return null;
  return { keys: [...perKey.keys()], args: [...perKey.values()].flatMap(({ seq, cost }) => [String(seq), String(cost)]) };
}
