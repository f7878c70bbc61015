/**
 * lua/ratelimit-check.lua and lua/ratelimit-refund.lua on their own against a real Redis, with the
 * time override, plus cross-slot safety on the shared Cluster.
 */
import { randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import { pack } from 'msgpackr';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createRedis, waitUntilReady } from '../../src/redis/client.js';
import { LuaScript } from '../../src/redis/scripts.js';
import { COUNTER_TAGS, limiterField, limiterHash, slotOf } from '../../src/ratelimit/redis-keys.js';
import { counterTag, overrideIndexTag } from '../../src/redis/tags.js';
import { RedisRateLimiter } from '../../src/ratelimit/redis-limiter.js';
import { nodeOf } from '../../src/ratelimit/batcher.js';
import { decodeCheckReply, encodeCheckCall, encodeRefundCall } from '../../src/ratelimit/redis-check-call.js';
import { effective, retryAfter, rotate } from '../../src/ratelimit/sliding-window.js';

const CHECK = LuaScript.load('ratelimit-check');
const REFUND = LuaScript.load('ratelimit-refund');
const BASE = 1_700_000_040_000; // a multiple of every duration used here
const SEQ = BASE / 1000;

const redis = createRedis({ url: inject('redisUrl'), commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-lua');
beforeAll(() => waitUntilReady(redis, 'test redis', 10_000));
afterAll(() => redis.disconnect());

/** A counter: a field of a hash (redis-keys.ts); its name ends in its duration, as the sweep expects. */
interface Counter { readonly hash: string; readonly field: string }

/** A fresh counter in a hash of its own (the script only ever sees the hashes it is given), or in `hash`. */
const fresh = (durationMs = 1000, hash = `kg-test:lua:{${randomUUID()}}`): Counter => ({ hash, field: `o${randomUUID().slice(0, 8)}:c:${durationMs}` });

interface State { s: number; c: number; p: number }

/** A counter's stored state (three little-endian 64-bit integers), or null when it has none. */
async function stored(counter: Counter): Promise<State | null> {
  const value = await redis.hgetBuffer(counter.hash, counter.field);
  if (value === null) return null;
  expect(value.length).toBe(24);
  return { s: Number(value.readBigInt64LE(0)), c: Number(value.readBigInt64LE(8)), p: Number(value.readBigInt64LE(16)) };
}

/**
 * The fields of a counters' hash that are not counters (lua/ratelimit-check.lua): the one that keeps
 * it a hash table, and the sweep's cursor.
 */
const NOT_COUNTERS = new Set(['!', '#']);

/** The counters' fields of a hash. */
const counterFields = async (hash: string): Promise<string[]> => (await redis.hkeys(hash)).filter((f) => !NOT_COUNTERS.has(f));

async function put(counter: Counter, state: State): Promise<void> {
  const value = Buffer.alloc(24);
  value.writeBigInt64LE(BigInt(state.s), 0);
  value.writeBigInt64LE(BigInt(state.c), 8);
  value.writeBigInt64LE(BigInt(state.p), 16);
  await redis.hset(counter.hash, counter.field, value);
}

/** [counterIndex, limit, durationMs, cost] per check, groups of checks. */
type Check = [number, number, number, number];
/**
 * Runs the script and reads its reply as the limiter does (decodeCheckReply replays the groups on
 * the returned states), flattened: now, then per group its verdict (1/0) and per check 6 values:
 * passed (1/0), remaining, resetAtMs, retryAfterMs (-1: never), then c and p after the group.
 */
async function run(counters: Counter[], now: number | '', groups: Check[][], sweepEach = 0): Promise<number[]> {
  const keyed = groups.map((g) => g.map(([i, limit, durationMs, cost]) => ({ key: counters[i - 1]!.field, hash: counters[i - 1]!.hash, slot: 0, check: { counter: 'c', limit, durationMs, cost } })));
  const call = encodeCheckCall(keyed, now === '' ? undefined : now, sweepEach);
  expect([...call.fields].sort()).toEqual(counters.map((c) => c.field).sort()); // the tests name every counter
  const decoded = decodeCheckReply(await CHECK.run(redis, call.keys, call.args, true), keyed, call);
  return [decoded.nowMs, ...decoded.groups.flatMap((g) => {
    if (g instanceof Error) throw g;
    return [g.passed ? 1 : 0, ...g.results.flatMap((r) => [
      r.passed ? 1 : 0, r.remaining, r.resetAtMs, r.retryAfterMs === Infinity ? -1 : r.retryAfterMs, r.state.c, r.state.p,
    ])];
  })];
}

/** One single-check group: [groupPassed, passed, remaining, resetAtMs, retryAfterMs, c, p]. */
async function one(counter: Counter, now: number, limit: number, cost: number, durationMs = 1000): Promise<number[]> {
  return (await run([counter], now, [[[1, limit, durationMs, cost]]])).slice(1);
}

describe('ratelimit-check.lua', () => {
  it('first call: passes, writes {s, c, p} into its field, returns the time used', async () => {
    const key = fresh();
    const reply = await run([key], BASE + 250, [[[1, 10, 1000, 3]]]);
    expect(reply).toEqual([BASE + 250, 1, 1, 7, BASE + 1000, 0, 3, 0]);
    expect(await stored(key)).toEqual({ s: SEQ, c: 3, p: 0 });
    expect(await counterFields(key.hash)).toEqual([key.field]);
  });

  it('window rollover: the old count becomes p, weighted by floor', async () => {
    const key = fresh();
    await one(key, BASE + 500, 10, 8);
    await one(key, BASE + 600, 10, 1);
    expect(await stored(key)).toEqual({ s: SEQ, c: 9, p: 0 });
    // 30 % into the next window: eff = floor(9 · 0.7) = 6, so 4 pass and 5 do not. Cost 5 fits
    // once floor(9 · left / 1000) ≤ 5 ⇔ left ≤ 666, i.e. at BASE + 1334: 34 ms from now.
    expect(await one(key, BASE + 1300, 10, 5)).toEqual([0, 0, 0, BASE + 2000, 34, 0, 9]);
    expect(await one(key, BASE + 1300, 10, 4)).toEqual([1, 1, 0, BASE + 2000, 0, 4, 9]);
    expect(await stored(key)).toEqual({ s: SEQ + 1, c: 4, p: 9 });
    // Two windows on, nothing weighs any more.
    expect(await one(key, BASE + 3000, 10, 0)).toEqual([1, 1, 10, BASE + 4000, 0, 0, 0]);
  });

  it('counters of several hashes, and several counters of one hash, in one call', async () => {
    const shared = `kg-test:lua:{${randomUUID()}}`;
    const [a, b, c] = [fresh(1000, shared), fresh(), fresh(60_000, shared)];
    await put(b, { s: SEQ, c: 2, p: 0 });
    const reply = await run([a, b, c], BASE, [[[1, 5, 1000, 1], [2, 5, 1000, 1]], [[3, 5, 60_000, 4], [2, 5, 1000, 1]]]);
    expect(reply.slice(1)).toEqual([1, 1, 4, BASE + 1000, 0, 1, 0, 1, 2, BASE + 1000, 0, 3, 0, 1, 1, 1, BASE + 60_000, 0, 4, 0, 1, 1, BASE + 1000, 0, 4, 0]);
    expect(await stored(a)).toEqual({ s: SEQ, c: 1, p: 0 });
    expect(await stored(b)).toEqual({ s: SEQ, c: 4, p: 0 });
    expect(await stored(c)).toEqual({ s: BASE / 60_000, c: 4, p: 0 });
  });

  it('a sweep deletes counters two windows behind and keeps the others; new counters pay for one', async () => {
    const hash = `kg-test:lua:{${randomUUID()}}`;
    const stale = [fresh(1000, hash), fresh(60_000, hash)];
    const live = [fresh(1000, hash), fresh(60_000, hash)];
    await put(stale[0]!, { s: SEQ - 2, c: 3, p: 1 });
    await put(stale[1]!, { s: BASE / 60_000 - 5, c: 3, p: 1 });
    await put(live[0]!, { s: SEQ - 1, c: 3, p: 1 });
    await put(live[1]!, { s: BASE / 60_000 - 1, c: 3, p: 1 });
    // A read that creates nothing and asks for no sweep leaves the hash as it is.
    await run([live[0]!], BASE, [[[1, 5, 1000, 0]]]);
    expect((await counterFields(hash)).sort()).toEqual([...stale, ...live].map((c) => c.field).sort());
    // Asked to sweep: the stale ones go.
    await run([live[0]!], BASE, [[[1, 5, 1000, 0]]], 10);
    expect((await counterFields(hash)).sort()).toEqual(live.map((c) => c.field).sort());
    // Not asked, but new counters: each pays for a sweep of twice its number, which walks on from
    // where the last one stopped (its cursor), so the counters gone stale go within a few calls.
    const later = BASE + 2 * 60_000;
    const added: Counter[] = [];
    const staleLeft = async (): Promise<boolean> => (await counterFields(hash)).some((f) => live.some((c) => c.field === f));
    for (let call = 0; call < 5 && await staleLeft(); call++) {
      const counter = fresh(1000, hash);
      added.push(counter);
      await run([counter], later, [[[1, 5, 1000, 1]]]);
    }
    expect((await counterFields(hash)).sort()).toEqual(added.map((c) => c.field).sort());
  });

  it('keeps its hash a hash table (a listpack makes every counter read a scan), also a hash an older build wrote', async () => {
    const key = fresh();
    await one(key, BASE, 10, 1);
    expect(await redis.call('OBJECT', 'ENCODING', key.hash)).toBe('hashtable');
    // Counters only, as keygate wrote them before the field: small, so Redis keeps them as a listpack.
    const old = fresh();
    await put(old, { s: SEQ, c: 1, p: 0 });
    expect(await redis.call('OBJECT', 'ENCODING', old.hash)).toBe('listpack');
    expect(await one(old, BASE, 10, 1)).toEqual([1, 1, 8, BASE + 1000, 0, 2, 0]);
    expect(await redis.call('OBJECT', 'ENCODING', old.hash)).toBe('hashtable');
    expect(await stored(old)).toEqual({ s: SEQ, c: 2, p: 0 });
  });

  it('a clock step back keeps the stored window and its counts', async () => {
    const key = fresh();
    await one(key, BASE + 1900, 10, 6);
    const back = await one(key, BASE + 950, 10, 4);
    expect(back).toEqual([1, 1, 0, BASE + 2000, 0, 10, 0]);
    expect(await stored(key)).toEqual({ s: SEQ + 1, c: 10, p: 0 });
    expect((await one(key, BASE + 950, 10, 1)).slice(0, 3)).toEqual([0, 0, 0]);
  });

  it('cost 0 reads without writing; a limit of 0 denies everything and writes nothing', async () => {
    const key = fresh();
    expect(await one(key, BASE, 5, 0)).toEqual([1, 1, 5, BASE + 1000, 0, 0, 0]);
    expect(await redis.exists(key.hash)).toBe(0);
    for (const cost of [0, 1]) expect(await one(key, BASE, 0, cost)).toEqual([0, 0, 0, BASE + 1000, -1, 0, 0]);
    // A group with a limit-0 check commits none of its siblings.
    const other = fresh();
    const reply = await run([other, key], BASE, [[[1, 5, 1000, 2], [2, 0, 1000, 0]]]);
    expect(reply.slice(1, 3)).toEqual([0, 1]);
    expect(await redis.exists(key.hash, other.hash)).toBe(0);
  });

  it('over the limit: a cost above the limit never passes (-1); a full window denies with retryAfter', async () => {
    const key = fresh();
    expect(await one(key, BASE + 100, 10, 11)).toEqual([0, 0, 0, BASE + 1000, -1, 0, 0]);
    expect(await one(key, BASE + 100, 10, 10)).toEqual([1, 1, 0, BASE + 1000, 0, 10, 0]);
    // Next window, until floor(10 · left / 1000) ≤ 9 ⇔ left ≤ 999 → BASE + 1001.
    expect(await one(key, BASE + 200, 10, 1)).toEqual([0, 0, 0, BASE + 1000, 801, 10, 0]);
    expect(await stored(key)).toEqual({ s: SEQ, c: 10, p: 0 });
  });

  it('several groups in one call run in order and see earlier commits; a key is listed once', async () => {
    const key = fresh();
    const sibling = fresh();
    const reply = await run([key, sibling], BASE, [
      [[1, 5, 1000, 3]],
      [[1, 5, 1000, 3]], // 3 + 3 > 5
      [[1, 5, 1000, 1], [2, 1, 60_000, 2]], // the sibling can never pass: nothing committed
      [[1, 5, 1000, 2], [1, 5, 1000, 0]], // named twice: the second mention sees the first's cost
    ]);
    const groups = [reply.slice(1, 8), reply.slice(8, 15), reply.slice(15, 28), reply.slice(28)];
    expect(groups.map((g) => g[0])).toEqual([1, 0, 0, 1]);
    expect(groups[0]!.slice(1, 3)).toEqual([1, 2]);
    expect(groups[1]!.slice(1, 3)).toEqual([0, 0]);
    expect(groups[2]!.slice(1, 3)).toEqual([1, 2]); // passed but not committed: what is still there
    expect(groups[3]!.slice(1, 3)).toEqual([1, 0]);
    expect(groups[3]!.slice(7, 9)).toEqual([1, 0]);
    expect(await stored(key)).toEqual({ s: SEQ, c: 5, p: 0 });
    expect(await redis.exists(sibling.hash)).toBe(0);
  });

  it('replies with now, the verdicts, then each counter\'s state as stored before the call (zeros for none)', async () => {
    const hash = `kg-test:lua:{${randomUUID()}}`;
    const [a, b] = [fresh(1000, hash), fresh(1000, hash)];
    await put(a, { s: SEQ - 1, c: 7, p: 1 }); // the previous window: becomes p = 7, weighing floor(7 · 0.9) = 6
    // Group 1: a (limit 10, cost 2) and b (limit 5, cost 1) pass; group 2: a at cost 20 does not.
    // The wire format (the script's header): fields per hash, the fields, their durations, then the groups.
    const args = [String(BASE + 100), '0', pack([2, a.field, b.field, 1000, 1000, 2, 2, 1, 10, 2, 2, 5, 1, 1, 1, 10, 20])];
    const reply = await CHECK.run(redis, [hash], args, true) as Buffer;
    expect(reply.length).toBe(8 + 2 + 2 * 24);
    expect(Number(reply.readBigInt64LE(0))).toBe(BASE + 100);
    expect(reply.subarray(8, 10).toString()).toBe('10');
    expect([0, 1, 2].map((k) => Number(reply.readBigInt64LE(10 + 8 * k)))).toEqual([SEQ - 1, 7, 1]);
    expect(reply.subarray(34)).toEqual(Buffer.alloc(24));
    expect(await stored(a)).toEqual({ s: SEQ, c: 2, p: 7 });
    expect(await stored(b)).toEqual({ s: SEQ, c: 1, p: 0 });
  });

  it('counts exactly up to 2^53 − 1', async () => {
    const key = fresh();
    const max = Number.MAX_SAFE_INTEGER;
    expect(await one(key, BASE, max, max - 1)).toEqual([1, 1, 1, BASE + 1000, 0, max - 1, 0]);
    expect((await one(key, BASE, max, 2)).slice(0, 3)).toEqual([0, 0, 0]);
    expect(await one(key, BASE, max, 1)).toEqual([1, 1, 0, BASE + 1000, 0, max, 0]);
    expect(await stored(key)).toEqual({ s: SEQ, c: max, p: 0 });
  });

  it('is deterministic under the time override, and uses Redis TIME without one', async () => {
    const [a, b] = [fresh(), fresh()];
    const groups: Check[][] = [[[1, 7, 1000, 2]], [[1, 7, 1000, 6]], [[1, 7, 1000, 5]]];
    expect(await run([a], BASE + 321, groups)).toEqual(await run([b], BASE + 321, groups));
    const before = Date.now();
    const [now] = await run([fresh()], '', [[[1, 7, 1000, 1]]]);
    expect(now).toBeGreaterThanOrEqual(before - 1_000); // same machine: at most clock granularity apart
    expect(now).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('matches sliding-window.ts exactly on random states, times and costs', async () => {
    let seed = 7;
    const rand = (n: number): number => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    for (let i = 0; i < 300; i++) {
      const durationMs = [1000, 60_000, 86_400_000][rand(3)]!;
      const limit = 1 + rand(1_000_000);
      const s = Math.floor(BASE / durationMs) + rand(3) - 1;
      const state = { s, c: rand(limit + 1), p: rand(limit * 2) };
      const now = Math.floor(BASE / durationMs) * durationMs + rand(2 * durationMs);
      const cost = rand(Math.floor(limit / 2) + 1);
      const key = fresh(durationMs);
      await put(key, state);
      const r = rotate(state, now, durationMs);
      const eff = effective(r, now, durationMs);
      const passed = eff + cost <= limit;
      const retry = passed ? 0 : retryAfter(r, now, durationMs, limit, cost);
      const got = await one(key, now, limit, cost, durationMs);
      expect(got.slice(1, 5), JSON.stringify({ state, now, limit, cost, durationMs }))
        .toEqual([passed ? 1 : 0, passed ? limit - eff - cost : 0, (r.s + 1) * durationMs, retry === Infinity ? -1 : retry]);
    }
  });
});

describe('ratelimit-refund.lua', () => {
  it('gives back from c in the same window, from p after a rotation, nothing for older windows or missing counters, never below 0', async () => {
    const hash = `kg-test:lua:{${randomUUID()}}`;
    const [same, rotated, old, over, missing] = [fresh(1000, hash), fresh(1000, hash), fresh(1000, hash), fresh(1000, hash), fresh(1000, hash)];
    await put(same, { s: SEQ, c: 5, p: 2 });
    await put(rotated, { s: SEQ + 1, c: 1, p: 5 });
    await put(old, { s: SEQ + 2, c: 4, p: 0 });
    await put(over, { s: SEQ, c: 1, p: 0 });
    const refunds = [same, rotated, old, missing].flatMap((c, i) => [c.field, String(SEQ), String(i + 2)]);
    expect(await REFUND.run(redis, [hash], refunds)).toEqual([1, 2, 0, 0]);
    expect(await stored(same)).toEqual({ s: SEQ, c: 3, p: 2 });
    expect(await stored(rotated)).toEqual({ s: SEQ + 1, c: 1, p: 2 });
    expect(await stored(old)).toEqual({ s: SEQ + 2, c: 4, p: 0 });
    expect(await stored(missing)).toBeNull();
    expect(await REFUND.run(redis, [hash], [over.field, String(SEQ), '3'])).toEqual([1]);
    expect(await stored(over)).toEqual({ s: SEQ, c: 0, p: 0 });
  });

  it('gives back what a check committed to a counter whose name is not well-formed text (a lone surrogate)', async () => {
    // Counters name what a client sent (ratelimit.limit's identifier): JSON may escape a lone surrogate.
    const owner = `user-${randomUUID()}`;
    const counter = `ns:identifier-\ud800`;
    const hash = limiterHash('kg-test:lua:', owner, false);
    const keyed = [{ key: limiterField(owner, counter, 1000), hash, slot: 0, check: { counter, owner, limit: 10, durationMs: 1000, cost: 3 } }];
    const call = encodeCheckCall([keyed], BASE + 100, 0);
    const decoded = decodeCheckReply(await CHECK.run(redis, call.keys, call.args, true), [keyed], call);
    const group = decoded.groups[0]!;
    if (group instanceof Error) throw group;
    const refund = encodeRefundCall(keyed, group.results)!;
    expect(await REFUND.run(redis, refund.keys, refund.args)).toEqual([1]);
    expect(await stored({ hash, field: keyed[0]!.key })).toEqual({ s: SEQ, c: 0, p: 0 });
    await redis.del(hash);
  });
});

describe('the counters on a standalone Redis', () => {
  it('every owner\'s counters are fields of one hash, so one call reads and writes them with a command each', async () => {
    const keyPrefix = `kg-test:${randomUUID()}:`;
    const limiter = new RedisRateLimiter({ client: redis, keyPrefix, failMode: 'closed', log: pino({ level: 'silent' }) });
    try {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => limiter.limit([{ checks: [
        { counter: 'a', owner: `user-${i}`, limit: 5, durationMs: 60_000, cost: 1 },
        { counter: 'b', owner: `user-${i}`, limit: 5, durationMs: 1_000, cost: 1 },
      ] }])));
      expect(results.flat().every((g) => g.passed)).toBe(true);
      expect(limiter.stats.scriptsSent).toBe(1);
      // Besides the call's resend guard (lua/ratelimit-check.lua runs once per call), one hash.
      const keys = (await redis.keys(`${keyPrefix}*`)).filter((k) => !k.includes(':once:'));
      expect(keys).toEqual([limiterHash(keyPrefix, 'user-0', false)]);
      expect(await counterFields(keys[0]!)).toHaveLength(100);
    } finally {
      await limiter.close();
    }
  });
});

describe('cross-slot safety on the Cluster', () => {
  const nodes = inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));
  const cluster = createRedis({ clusterNodes: nodes, commandTimeoutMs: 2_000, keyPrefix: '' }, 'test-lua');
  beforeAll(() => waitUntilReady(cluster, 'test cluster', 10_000));
  afterAll(() => cluster.disconnect());

  it('a slot\'s node name (which calls share a pipeline) follows a node list ioredis changes in place, as on a MOVED', () => {
    const slot = slotOf('kg-test:{a}');
    const list = (cluster as Cluster).slots[slot]!;
    const before = nodeOf(cluster, slot);
    expect(before).toBe(list.join(';'));
    const master = list[0]!;
    list[0] = '127.0.0.1:1';
    try {
      expect(nodeOf(cluster, slot)).toBe(['127.0.0.1:1', ...list.slice(1)].join(';'));
    } finally {
      list[0] = master;
    }
    expect(nodeOf(cluster, slot)).toBe(before);
  });

  it('Redis refuses one call with keys of two slots', async () => {
    await expect(CHECK.run(cluster, ['kg-test:{a}', 'kg-test:{b}'], ['', '0', pack([1, 1, 'x:1000', 'y:1000', 1, 2, 1, 5, 1000, 1, 2, 5, 1000, 1])]))
      .rejects.toThrow(/CROSSSLOT|slot/i);
  });

  it('the counter buckets are on different masters of an evenly split cluster, each with the override index entries of its owners', async () => {
    // Each slot range with its master's address (CLUSTER SLOTS).
    const masters = (await cluster.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    const masterOf = (slot: number): number => masters.find(([from, to]) => slot >= from && slot <= to)![2][1];
    const counterMasters = COUNTER_TAGS.map((tag) => masterOf(slotOf(`kg:rl:{${tag}}`)));
    expect(new Set(counterMasters).size).toBe(3);
    for (let i = 0; i < 2_000; i++) {
      const owner = `owner-${i}`;
      expect(masterOf(slotOf(limiterHash('kg:', owner, true)))).toBe(masterOf(slotOf(`{${overrideIndexTag(owner)}}`)));
    }
    // Every bucket carries a fair share of owners.
    const perTag = new Map<string, number>();
    for (let i = 0; i < 3_000; i++) perTag.set(counterTag(`owner-${i}`), (perTag.get(counterTag(`owner-${i}`)) ?? 0) + 1);
    for (const tag of COUNTER_TAGS) expect(perTag.get(tag)).toBeGreaterThan(500);
  });

  it('200 concurrent groups of distinct owners share one call per bucket slot; owners never share a counter', async () => {
    const keyPrefix = `kg-test:${randomUUID()}:`;
    const limiter = new RedisRateLimiter({ client: cluster, keyPrefix, failMode: 'closed', log: pino({ level: 'silent' }) });
    try {
      // Same counter name, different owners: separate counters (each sees only its own 1 of 5).
      const single = await Promise.all(Array.from({ length: 200 }, (_, i) => limiter.limit([{ checks: [{ counter: 'c', owner: `user-${i}`, limit: 5, durationMs: 60_000, cost: 1 }] }])));
      expect(single.flat().every((g) => g.passed && g.results.every((r) => r.remaining === 4))).toBe(true);
      const slots = new Set(Array.from({ length: 200 }, (_, i) => slotOf(limiterHash(keyPrefix, `user-${i}`, true))));
      expect(slots.size).toBe(COUNTER_TAGS.length);
      expect(limiter.stats.groupsEvaluated).toBe(200);
      // The point of the buckets: one script call per slot for the whole batch, not one per owner.
      expect(limiter.stats.scriptsSent).toBe(slots.size);
    } finally {
      await limiter.close();
    }
  });

  it('two-owner groups among single-owner ones all succeed: no call mixes slots', async () => {
    const keyPrefix = `kg-test:${randomUUID()}:`;
    const limiter = new RedisRateLimiter({ client: cluster, keyPrefix, failMode: 'closed', log: pino({ level: 'silent' }) });
    try {
      const single = Array.from({ length: 200 }, (_, i) => limiter.limit([{ checks: [{ counter: 'c', owner: `user-${i}`, limit: 5, durationMs: 60_000, cost: 1 }] }]));
      const spanning = Array.from({ length: 20 }, (_, i) => limiter.limit([{ checks: [
        { counter: 'a', owner: `left-${i}`, limit: 5, durationMs: 60_000, cost: 1 },
        { counter: 'b', owner: `right-{${i}}`, limit: 5, durationMs: 60_000, cost: 1 },
      ] }]));
      const results = (await Promise.all([...single, ...spanning])).flat();
      expect(results.every((g) => g.passed && g.results.every((r) => r.remaining === 4))).toBe(true);
      // A group is evaluated once per slot it spans; most of these span two.
      const slotOfOwner = (owner: string): number => slotOf(limiterHash(keyPrefix, owner, true));
      const spanningTwo = Array.from({ length: 20 }, (_, i) => slotOfOwner(`left-${i}`) !== slotOfOwner(`right-{${i}}`)).filter(Boolean).length;
      expect(spanningTwo).toBeGreaterThan(5);
      expect(limiter.stats.groupsEvaluated).toBe(200 + 20 + spanningTwo);
      // Groups after a spanning one wait for its round in the slots it touched, so calls are at
      // least one per slot and at most one per slot per round.
      const slots = new Set([...Array.from({ length: 200 }, (_, i) => [`user-${i}`, 'c']), ...Array.from({ length: 20 }, (_, i) => [[`left-${i}`, 'a'], [`right-{${i}}`, 'b']]).flat()]
        .map(([owner]) => slotOf(limiterHash(keyPrefix, owner!, true))));
      expect(limiter.stats.scriptsSent).toBeGreaterThanOrEqual(slots.size);
      expect(limiter.stats.scriptsSent).toBeLessThanOrEqual(slots.size * 21);
    } finally {
      await limiter.close();
    }
  });
});
