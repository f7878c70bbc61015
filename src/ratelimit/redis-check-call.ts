/**
 * The wire format of lua/ratelimit-check.lua and lua/ratelimit-refund.lua (see their headers):
 * builds KEYS/ARGV for a batch of groups in one slot and reads the reply, whose per-check numbers
 * it works out by replaying the groups on the counter states the script returns.
 */
import { MsgpackArrayWriter, packedString } from '../redis/msgpack-array.js';
import { effectiveOf, retryAfter, rotate, type WindowState } from './sliding-window.js';
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

/** Bytes of a counter's stored state in the reply (three little-endian 64-bit integers), and of `now`. */
const STATE_BYTES = 24;
const NOW_BYTES = 8;
/** A group's verdict in the reply: '1' passed, '0' denied. */
const PASSED = 0x31;

/** A little-endian 64-bit integer (all of the script's are below 2^53). */
const int64At = (buf: Buffer, at: number): number => buf.readUInt32LE(at) + buf.readInt32LE(at + 4) * 4_294_967_296;

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
    elements += 1 + 3 * group.length;
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
  // ARGV[3], in the script's order: fields per hash, the fields, their durations, then the groups' checks.
  const out = argWriter;
  out.start(hashes.length + 2 * fields.length + elements);
  for (const list of byHash) out.number(list.length);
  for (const list of byHash) for (const keyed of list) out.packed(keyed.packedKey ?? packedString(keyed.key));
  // A field's name ends in its duration, so every check of it has that duration.
  for (const list of byHash) for (const keyed of list) out.number(keyed.check.durationMs);
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
      out.number(check.cost);
    }
    keyIndexes[g] = indexes;
  }
  return { keys: hashes, fields, keyIndexes, args: [nowOverrideMs === undefined ? '' : String(nowOverrideMs), String(sweepEach), out.take()] };
}

/**
 * The script returns only each group's verdict and each counter's state as stored before the call;
 * every check's numbers come from rotating those states to the script's time and replaying the
 * groups on them here, with the memory limiter's rules (memory-limiter.ts), which must reach the
 * script's verdicts. `reply` is the script's one string, as a Buffer.
 */
export function decodeCheckReply(reply: unknown, groups: readonly (readonly KeyedCheck[])[], call: CheckCall): DecodedCall {
  const keyCount = call.fields.length;
  const expected = NOW_BYTES + groups.length + keyCount * STATE_BYTES;
  if (!Buffer.isBuffer(reply) || reply.length !== expected) {
    throw new Error(`ratelimit-check returned ${Buffer.isBuffer(reply) ? `${reply.length} bytes` : typeof reply}, expected ${expected} bytes`);
  }
  const nowMs = int64At(reply, 0);
  const at = NOW_BYTES + groups.length;
  // Counter i's state rotated to now, as the script rotated it: s and p fixed for the call, c moves with commits.
  const s = new Array<number>(keyCount);
  const c = new Array<number>(keyCount);
  const p = new Array<number>(keyCount);
  // The group's tentative count per key index; mark[i] === g makes it this group's (-2: not yet read).
  const mark = new Array<number>(keyCount).fill(-2);
  const tentative = new Array<number>(keyCount).fill(0);
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
      if (mark[i] === -2) {
        // First mention: every check of a counter has its duration (the field's name ends in it).
        const o = at + i * STATE_BYTES;
        const state = rotate({ s: int64At(reply, o), c: int64At(reply, o + 8), p: int64At(reply, o + 16) }, nowMs, check.durationMs);
        s[i] = state.s;
        c[i] = state.c;
        p[i] = state.p;
      }
      const count = mark[i] === g ? tentative[i]! : c[i]!;
      mark[i] = g;
      tentative[i] = count + check.cost;
      const eff = effectiveOf(s[i]!, count, p[i]!, nowMs, check.durationMs);
      counts[j] = count;
      effs[j] = eff;
      owns[j] = check.limit > 0 && eff + check.cost <= check.limit;
      if (!owns[j]) passed = false;
    }
    // The script's verdict is what Redis committed: later groups are replayed on it either way.
    const committed = reply[NOW_BYTES + g] === PASSED;
    if (committed) for (let j = 0; j < indexes.length; j++) c[indexes[j]!] = tentative[indexes[j]!]!;
    if (passed !== committed) {
      decoded[g] = new Error('ratelimit-check: the replay of a group disagrees with the script');
      continue;
    }
    const results = new Array<DecodedCheck>(group.length);
    for (let j = 0; j < group.length; j++) {
      const i = indexes[j]!;
      const { check } = group[j]!;
      const eff = effs[j]!;
      const own = owns[j]!;
      results[j] = {
        passed: own,
        limit: check.limit,
        remaining: !own ? 0 : Math.max(0, check.limit - (passed ? eff + check.cost : eff)),
        resetAtMs: (s[i]! + 1) * check.durationMs,
        retryAfterMs: own ? 0 : check.limit === 0 ? Number.POSITIVE_INFINITY : retryAfter({ s: s[i]!, c: counts[j]!, p: p[i]! }, nowMs, check.durationMs, check.limit, check.cost),
        state: { s: s[i]!, c: c[i]!, p: p[i]! },
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
