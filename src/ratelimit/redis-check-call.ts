/**
 * The wire format of lua/ratelimit-check.lua and lua/ratelimit-refund.lua (see their headers):
 * builds KEYS/ARGV for a batch of groups in one slot and reads the reply, whose per-check numbers
 * it works out by replaying the groups on the counter states the script returns.
 */
import { MsgpackArrayWriter, packedString } from '../redis/msgpack-array.js';
import { effectiveOf, retryAfter, type WindowState } from './sliding-window.js';
import type { LimitCheck, LimitCheckResult } from './types.js';

/** A check with its counter's field, the hash holding it (redis-keys.ts) and that hash's Cluster slot. */
export interface KeyedCheck {
  readonly check: LimitCheck;
  /** The counter's field: unique per counter across the hashes, so it also names the counter here. */
  readonly key: string;
  readonly hash: string;
  readonly slot: number;
  /** `key` as a msgpack string (packedString), made once with a check that is used again and again. */
  readonly packedKey?: Uint8Array;
}

export interface ScriptCall {
  readonly keys: string[];
  readonly args: (string | Buffer)[];
}

/** A check call, its counters' fields, and per group per check the index of its field in `fields` (for the replay). */
export interface CheckCall extends ScriptCall {
  readonly fields: readonly string[];
  readonly keyIndexes: readonly (readonly number[])[];
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
  /** An Error for a group whose replay disagreed with the script's verdict (a bug): only it fails. */
  readonly groups: (DecodedGroup | Error)[];
}

const FIELDS_PER_KEY = 3;

/** Writes every check call's ARGV[3]: calls are encoded one at a time, synchronously. */
const argWriter = new MsgpackArrayWriter();

/**
 * KEYS lists each hash once, and the fields each counter once (a hot counter named by 100 groups
 * is read once), those of the first hash first; checks index the fields. `sweepEach`: fields the
 * script looks at per hash for stale counters besides those its new ones pay for.
 */
export function encodeCheckCall(groups: readonly (readonly KeyedCheck[])[], nowOverrideMs: number | undefined, sweepEach: number): CheckCall {
  // Each counter once, by hash in the order the hashes first appear (one hash, nearly always).
  const hashes: string[] = [];
  const byHash: KeyedCheck[][] = [];
  // A field's hash's position first, then (below) the field's own among all the fields.
  const index = new Map<string, number>();
  let elements = 1;
  for (const group of groups) {
    elements += 1 + 4 * group.length;
    for (const keyed of group) {
      if (index.has(keyed.key)) continue;
      let h = hashes.indexOf(keyed.hash);
      if (h < 0) {
        h = hashes.push(keyed.hash) - 1;
        byHash.push([]);
      }
      byHash[h]!.push(keyed);
      index.set(keyed.key, h);
    }
  }
  const fields: string[] = [];
  for (const list of byHash) {
    for (const keyed of list) {
      index.set(keyed.key, fields.length);
      fields.push(keyed.key);
    }
  }
  // ARGV[3], in the script's order: fields per hash, the fields, then the groups' checks.
  const out = argWriter;
  out.start(hashes.length + fields.length + elements);
  for (const list of byHash) out.number(list.length);
  for (const list of byHash) for (const keyed of list) out.packed(keyed.packedKey ?? packedString(keyed.key));
  out.number(groups.length);
  const keyIndexes = new Array<number[]>(groups.length);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    out.number(group.length);
    const indexes = new Array<number>(group.length);
    for (let j = 0; j < group.length; j++) {
      const { key, check } = group[j]!;
      const i = index.get(key)!;
      indexes[j] = i;
      out.number(i + 1);
      out.number(check.limit);
      out.number(check.durationMs);
      out.number(check.cost);
    }
    keyIndexes[g] = indexes;
  }
  return { keys: hashes, fields, keyIndexes, args: [nowOverrideMs === undefined ? '' : String(nowOverrideMs), String(sweepEach), out.take()] };
}

/**
 * The script returns only each group's verdict and each counter's state before its commits; every
 * check's numbers come from replaying the groups on those states here, with the memory limiter's
 * rules (memory-limiter.ts), which must reach the script's verdicts.
 */
export function decodeCheckReply(reply: unknown, groups: readonly (readonly KeyedCheck[])[], call: CheckCall): DecodedCall {
  const keyCount = call.fields.length;
  const expected = 1 + groups.length + keyCount * FIELDS_PER_KEY;
  if (!Array.isArray(reply) || reply.length !== expected) {
    throw new Error(`ratelimit-check returned ${Array.isArray(reply) ? reply.length : typeof reply} values, expected ${expected}`);
  }
  const values = reply as number[];
  const nowMs = values[0]!;
  // Counter i's state is values[at + 3i] (s), [at + 3i + 1] (c), [at + 3i + 2] (p); c moves with commits.
  const at = 1 + groups.length;
  const c = new Array<number>(keyCount);
  // The group's tentative count per key index; mark[i] === g makes it this group's.
  const mark = new Array<number>(keyCount);
  const tentative = new Array<number>(keyCount);
  for (let i = 0; i < keyCount; i++) {
    c[i] = values[at + i * FIELDS_PER_KEY + 1]!;
    mark[i] = -1;
    tentative[i] = 0;
  }
  const decoded = new Array<DecodedGroup | Error>(groups.length);
  for (let g = 0; g < groups.length; g++) {
    const group = groups[g]!;
    const indexes = call.keyIndexes[g]!;
    // Each check's count before it (earlier mentions in the group included) and effective count.
    const counts = new Array<number>(group.length);
    const effs = new Array<number>(group.length);
    const owns = new Array<boolean>(group.length);
    let passed = true;
    for (let j = 0; j < group.length; j++) {
      const i = indexes[j]!;
      const { check } = group[j]!;
      const count = mark[i] === g ? tentative[i]! : c[i]!;
      mark[i] = g;
      tentative[i] = count + check.cost;
      const eff = effectiveOf(values[at + i * FIELDS_PER_KEY]!, count, values[at + i * FIELDS_PER_KEY + 2]!, nowMs, check.durationMs);
      counts[j] = count;
      effs[j] = eff;
      owns[j] = check.limit > 0 && eff + check.cost <= check.limit;
      if (!owns[j]) passed = false;
    }
    // The script's verdict is what Redis committed: later groups are replayed on it either way.
    const committed = values[1 + g] === 1;
    if (committed) for (let j = 0; j < indexes.length; j++) c[indexes[j]!] = tentative[indexes[j]!]!;
    if (passed !== committed) {
      decoded[g] = new Error('ratelimit-check: the replay of a group disagrees with the script');
      continue;
    }
    const results = new Array<DecodedCheck>(group.length);
    for (let j = 0; j < group.length; j++) {
      const i = indexes[j]!;
      const { check } = group[j]!;
      const s = values[at + i * FIELDS_PER_KEY]!;
      const p = values[at + i * FIELDS_PER_KEY + 2]!;
      const eff = effs[j]!;
      const own = owns[j]!;
      results[j] = {
        passed: own,
        limit: check.limit,
        remaining: !own ? 0 : Math.max(0, check.limit - (passed ? eff + check.cost : eff)),
        resetAtMs: (s + 1) * check.durationMs,
        retryAfterMs: own ? 0 : check.limit === 0 ? Number.POSITIVE_INFINITY : retryAfter({ s, c: counts[j]!, p }, nowMs, check.durationMs, check.limit, check.cost),
        state: { s, c: c[i]!, p },
      };
    }
    decoded[g] = { passed, results };
  }
  return { nowMs, groups: decoded };
}

/**
 * The refund of a committed part (its counters share one hash: a part is one slot's): per counter,
 * the window its cost went into and the summed cost (a counter named twice in a group committed
 * both mentions).
 */
export function encodeRefundCall(part: readonly KeyedCheck[], results: readonly LimitCheckResult[]): ScriptCall | null {
  const perField = new Map<string, { seq: number; cost: number }>();
  part.forEach(({ key, check }, i) => {
    if (check.cost === 0) return;
    const seq = results[i]!.resetAtMs / check.durationMs - 1;
    const entry = perField.get(key) ?? { seq, cost: 0 };
    entry.cost += check.cost;
    perField.set(key, entry);
  });
  if (perField.size === 0) return null;
  if (part.some(({ hash }) => hash !== part[0]!.hash)) throw new Error('a refund covers the counters of one hash');
  return { keys: [part[0]!.hash], args: [...perField].flatMap(([field, { seq, cost }]) => [field, String(seq), String(cost)]) };
}
