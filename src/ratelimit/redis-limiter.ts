/**
 * RateLimiter over Redis or Redis Cluster, exact across replicas: Redis is the authority
 * for every check that is not denied locally, time comes from Redis TIME, and one script call per
 * slot per event-loop turn evaluates all queued groups of that slot (lua/ratelimit-check.lua).
 *
 * Batches grow with load: while MAX_FLUSHES_PER_NODE batches are on their way to a node, checks
 * for that node wait and go together once one comes back (the rest go at once). Unloaded, nothing
 * waits; under load a batch holds what arrived during one round trip instead of one turn's worth,
 * so script calls per check fall as the rate rises.
 * Checks naming a key that waits wait too, so one key's checks keep their order.
 *
 * Atomicity: a group whose checks share one owner (one slot) is all or nothing inside one script.
 * A group spanning owners runs one part per slot; if any part is denied, the committed parts are
 * refunded (lua/ratelimit-refund.lua). Until the refund lands, other requests may see the extra
 * cost: false denials only, never over-admission.
 */
import { Cluster } from 'ioredis';
import { ServiceUnavailableError } from '../errors/api-error.js';
import type { Logger } from '../obs/log.js';
import { isUnavailable, type RedisClient } from '../redis/client.js';
import { LuaScript } from '../redis/scripts.js';
import { packedString } from '../redis/msgpack-array.js';
import { chunkParts, nodeOf, planRounds, sendScripts, TurnQueue, type Part, type Round } from './batcher.js';
import { decodeCheckReply, encodeCheckCall, encodeRefundCall, type DecodedCheck, type DecodedGroup, type KeyedCheck } from './redis-check-call.js';
import { DenyCache } from './redis-deny-cache.js';
import { failOpenResult, ThrottledWarning, type FailMode } from './redis-fail-mode.js';
import { checkKeyPrefix, limiterField, limiterHash, slotOf } from './redis-keys.js';
import type { LimitCheck, LimitCheckResult, LimitGroup, LimitGroupResult, RateLimiter } from './types.js';

// Once per call: a resent check would count twice, a resent refund give back twice.
const CHECK = LuaScript.load('ratelimit-check', { once: true });
const REFUND = LuaScript.load('ratelimit-refund', { once: true });

export interface RedisLimiterOptions {
  readonly client: RedisClient;
  /** Prepended to every limiter key (no `{` or `}`). */
  readonly keyPrefix: string;
  /** What a check answers when Redis cannot: reject (503) or pass. */
  readonly failMode: FailMode;
  readonly log: Logger;
  /** Tests only: the script uses this clock instead of Redis TIME (the contract's injected time). */
  readonly now?: () => number;
  /** Most checks one script call carries; a slot with more queued gets several calls. */
  readonly maxChecksPerCall?: number;
  /** Most counters the deny-only cache keeps. */
  readonly denyCacheEntries?: number;
}

/** Counters for tests and the bench. */
export interface RedisLimiterStats {
  /** ratelimit-check calls sent. */
  scriptsSent: number;
  /** Group parts those calls evaluated (a group spanning slots counts once per slot). */
  groupsEvaluated: number;
  /** Groups denied from the local cache without a Redis call. */
  localDenials: number;
  refundsSent: number;
  /** Group parts Redis could not answer (fail mode applied). */
  unavailable: number;
}

interface Pending {
  readonly keyed: readonly KeyedCheck[];
  resolve(result: LimitGroupResult): void;
  reject(error: unknown): void;
}

/** What a caller hears of a decoded check: its result, without the counter state the deny cache keeps. */
const checkResult = (r: DecodedCheck): LimitCheckResult =>
  ({ passed: r.passed, limit: r.limit, remaining: r.remaining, resetAtMs: r.resetAtMs, retryAfterMs: r.retryAfterMs });

type Outcome = { readonly ok: true; readonly group: DecodedGroup } | { readonly ok: false; readonly error: unknown };

/**
 * Batches in flight to one node before further checks for it wait. Two, not one: a batch is
 * gathered while the previous one is in Redis, so the connection never idles between them.
 */
const MAX_FLUSHES_PER_NODE = 2;
/** How often a round of calls also sweeps, and how many fields per hash each of its calls looks at. */
const SWEEP_INTERVAL_MS = 1_000;
const SWEEP_FIELDS = 64;

export class RedisRateLimiter implements RateLimiter {
  readonly stats: RedisLimiterStats = { scriptsSent: 0, groupsEvaluated: 0, localDenials: 0, refundsSent: 0, unavailable: 0 };
  private readonly client: RedisClient;
  private readonly keyPrefix: string;
  private readonly isCluster: boolean;
  /** Marks the keys and slots this limiter remembers on checks (see keyedCheck). */
  private readonly memoMark: string;
  private readonly cache: DenyCache;
  private readonly warning: ThrottledWarning;
  private readonly queue = new TurnQueue<Pending>((items) => this.dispatch(items));
  private readonly inFlight = new Set<Promise<void>>();
  /** Checks waiting for a node with MAX_FLUSHES_PER_NODE batches in flight, in arrival order. */
  private waiting: Pending[] = [];
  /** Batches in flight per node (batcher.ts nodeOf). */
  private readonly flushesPerNode = new Map<string, number>();
  /** Server time minus local time, from the last reply (see localNow). */
  private offsetMs = 0;
  private sweptAtMs = 0;
  private closed = false;
  private listener?: (results: readonly LimitGroupResult[]) => void;

  constructor(private readonly options: RedisLimiterOptions) {
    this.client = options.client;
    this.keyPrefix = checkKeyPrefix(options.keyPrefix);
    this.isCluster = options.client instanceof Cluster;
    this.memoMark = `${this.isCluster ? 'cluster' : 'standalone'} ${this.keyPrefix}`;
    this.cache = new DenyCache(options.denyCacheEntries ?? 100_000);
    this.warning = new ThrottledWarning(options.log);
  }

  /**
   * One promise per call however many groups it has (verifyKey makes a call per verification):
   * it resolves once every group has its result and rejects with the first group that fails, as
   * Promise.all would. A group settles once; later settlements of it are ignored.
   */
  limit(groups: readonly LimitGroup[]): Promise<LimitGroupResult[]> {
    if (this.closed) return Promise.reject(new Error('the rate limiter is closed'));
    if (groups.length === 1) return this.limitOne(groups[0]!);
    return new Promise<LimitGroupResult[]>((resolve, reject) => {
      const out = new Array<LimitGroupResult>(groups.length);
      let left = groups.length;
      let failed = false;
      const finished = (): void => {
        this.listener?.(out);
        resolve(out);
      };
      if (left === 0) return finished();
      groups.forEach((group, i) => {
        let settled = false;
        const done = (result: LimitGroupResult): void => {
          if (settled) return;
          settled = true;
          out[i] = result;
          if (--left === 0 && !failed) finished();
        };
        const fail = (error: unknown): void => {
          if (settled) return;
          settled = true;
          failed = true;
          reject(error);
        };
        const keyed = this.keyedGroup(group);
        if (keyed.length === 0) done({ passed: true, results: [] });
        else this.queue.push({ keyed, resolve: done, reject: fail });
      });
    });
  }

  /** limit() of one group (every verifyKey's call), with what tracking several groups needs left out. */
  private limitOne(group: LimitGroup): Promise<LimitGroupResult[]> {
    return new Promise<LimitGroupResult[]>((resolve, reject) => {
      const keyed = this.keyedGroup(group);
      let settled = false;
      const done = (result: LimitGroupResult): void => {
        if (settled) return;
        settled = true;
        const out = [result];
        this.listener?.(out);
        resolve(out);
      };
      if (keyed.length === 0) return done({ passed: true, results: [] });
      this.queue.push({ keyed, resolve: done, reject: (error) => { settled = true; reject(error); } });
    });
  }

  observe(listener: (results: readonly LimitGroupResult[]) => void): void {
    this.listener = listener;
  }

  /** The group's checks with their keys and slots, remembered on groups that carry a memo (as keyedCheck). */
  private keyedGroup(group: LimitGroup): readonly KeyedCheck[] {
    const { memo } = group;
    if (memo !== undefined && memo.made === this.memoMark) return memo.value as readonly KeyedCheck[];
    const keyed = group.checks.map((check) => this.keyedCheck(check));
    if (memo !== undefined) {
      memo.made = this.memoMark;
      memo.value = keyed;
    }
    return keyed;
  }

  /**
   * The check with its key and slot, remembered on checks that carry a memo (hot entries'), marked
   * with what they depend on besides the check (not with this limiter, which it would keep alive).
   */
  private keyedCheck(check: LimitCheck): KeyedCheck {
    const { memo } = check;
    if (memo !== undefined && memo.made === this.memoMark) return memo.value as KeyedCheck;
    const owner = check.owner ?? check.counter;
    const hash = limiterHash(this.keyPrefix, owner, this.isCluster);
    // A standalone Redis has no slots: everything of a turn can share one script call.
    const key = limiterField(owner, check.counter, check.durationMs);
    const keyed: KeyedCheck = { check, key, hash, slot: this.isCluster ? slotOf(hash) : 0, packedKey: memo === undefined ? undefined : packedString(key) };
    if (memo !== undefined) {
      memo.made = this.memoMark;
      memo.value = keyed;
    }
    return keyed;
  }

  /** Waits for calls already sent and checks still waiting; the client belongs to the caller and stays open. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private nodesOf(pending: Pending): string[] {
    return pending.keyed.map((k) => nodeOf(this.client, k.slot));
  }

  /**
   * Sends what may go now, one batch per node, so a node that does not answer holds up only its
   * own checks; keeps the checks for busy nodes (and those naming a key already kept) waiting.
   * Groups spanning nodes go in a batch of their own, with the later groups that touch their
   * slots: planRounds must order those (a spanning group may be refunded).
   */
  private dispatch(items: Pending[]): void {
    const all = this.waiting.length > 0 ? [...this.waiting, ...items] : items;
    this.waiting = [];
    const byNode = new Map<string, Pending[]>();
    const spanning: Pending[] = [];
    const spanningSlots = new Set<number>();
    const keptKeys = new Set<string>();
    for (const pending of all) {
      const nodes = this.nodesOf(pending);
      const busy = nodes.some((node) => (this.flushesPerNode.get(node) ?? 0) >= MAX_FLUSHES_PER_NODE);
      const node = nodes[0]!;
      if (busy || pending.keyed.some((k) => keptKeys.has(k.key))) {
        this.waiting.push(pending);
        for (const k of pending.keyed) keptKeys.add(k.key);
      } else if (nodes.some((n) => n !== node) || pending.keyed.some((k) => spanningSlots.has(k.slot))) {
        spanning.push(pending);
        for (const k of pending.keyed) spanningSlots.add(k.slot);
      } else {
        const list = byNode.get(node);
        if (list) list.push(pending); else byNode.set(node, [pending]);
      }
    }
    for (const [node, list] of byNode) this.track(this.flushCounted(list, [node]));
    if (spanning.length > 0) this.track(this.flushCounted(spanning, [...new Set(spanning.flatMap((p) => this.nodesOf(p)))]));
  }

  private async flushCounted(items: Pending[], nodes: readonly string[]): Promise<void> {
    for (const node of nodes) this.flushesPerNode.set(node, (this.flushesPerNode.get(node) ?? 0) + 1);
    try {
      await this.flush(items);
    } finally {
      for (const node of nodes) this.flushesPerNode.set(node, this.flushesPerNode.get(node)! - 1);
      if (this.waiting.length > 0) this.dispatch([]);
    }
  }

  /**
   * Estimated server time for local decisions. The offset is measured as server time minus the
   * local time at *sending*, so it errs towards a later server time; the effective count only
   * falls as time passes, so the error makes local denials rarer, never wrong.
   */
  private localNow(): number {
    return this.options.now ? this.options.now() : Date.now() + this.offsetMs;
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async flush(items: Pending[]): Promise<void> {
    try {
      const nowMs = this.localNow();
      const toRedis: Pending[] = [];
      // A key already on its way to Redis in this flush may change before a later group runs, so
      // groups naming it are decided by Redis too (in order, in the same call).
      const sent = new Set<string>();
      for (const pending of items) {
        const local = pending.keyed.some((k) => sent.has(k.key)) ? null : this.cache.tryDeny(pending.keyed, nowMs);
        if (local) {
          this.stats.localDenials++;
          pending.resolve(local);
          continue;
        }
        for (const k of pending.keyed) sent.add(k.key);
        toRedis.push(pending);
      }
      for (const round of planRounds(toRedis)) await this.runRound(round);
    } catch (error) {
      // A bug, not an outage: nobody may wait forever (settling twice is a no-op).
      for (const pending of items) pending.reject(error);
    }
  }

  private async runRound(round: Round<Pending>): Promise<void> {
    const sentAtMs = this.options.now ? this.options.now() : Date.now();
    // Counters never expire on their own (lua/ratelimit-check.lua): besides what new counters pay
    // for, the calls of one round a second each look at a few more for stale ones.
    const sweepEach = Date.now() - this.sweptAtMs >= SWEEP_INTERVAL_MS ? SWEEP_FIELDS : 0;
    if (sweepEach > 0) this.sweptAtMs = Date.now();
    const calls: { slot: number; parts: Part<Pending>[] }[] = [];
    for (const [slot, parts] of round) for (const chunk of chunkParts(parts, this.options.maxChecksPerCall ?? 256)) calls.push({ slot, parts: chunk });
    const encoded = calls.map(({ slot, parts }) => ({ slot, ...encodeCheckCall(parts.map((p) => p.keyed), this.options.now ? sentAtMs : undefined, sweepEach) }));
    this.stats.scriptsSent += calls.length;
    this.stats.groupsEvaluated += calls.reduce((n, c) => n + c.parts.length, 0);
    const replies = await sendScripts(this.client, CHECK, encoded);

    const outcomes = new Map<Pending, { part: Part<Pending>; outcome: Outcome }[]>();
    const answers: (() => void)[] = [];
    calls.forEach(({ parts }, i) => {
      let outcomeOf: (j: number) => Outcome;
      const reply = replies[i]!;
      try {
        if (!reply.ok) throw reply.error;
        const decoded = decodeCheckReply(reply.value, parts.map((p) => p.keyed), encoded[i]!);
        if (!this.options.now) this.offsetMs = decoded.nowMs - sentAtMs;
        outcomeOf = (j) => {
          const group = decoded.groups[j]!;
          return group instanceof Error ? { ok: false, error: group } : { ok: true, group };
        };
      } catch (error) {
        outcomeOf = () => ({ ok: false, error });
      }
      parts.forEach((part, j) => {
        const outcome = outcomeOf(j);
        if (outcome.ok) this.learn(part, outcome.group);
        // Most groups live in one slot: their one part is their whole answer.
        if (part.keyed.length === part.group.keyed.length) {
          answers.push(this.settleWhole(part, outcome));
          return;
        }
        const list = outcomes.get(part.group) ?? [];
        list.push({ part, outcome });
        outcomes.set(part.group, list);
      });
    });
    const refunds: { part: Part<Pending>; results: readonly LimitCheckResult[] }[] = [];
    for (const [pending, parts] of outcomes) answers.push(this.settle(pending, parts, refunds));
    // Refunds land before anyone hears of the denial and before the next round, so neither the
    // caller's next request nor later groups on these slots can see the cost given back.
    if (refunds.length > 0) await this.refund(refunds);
    for (const answer of answers) answer();
  }

  /** Feeds the deny cache: every counter of a denied group, fresher states of kept ones. */
  private learn(part: Part<Pending>, group: DecodedGroup): void {
    group.results.forEach((r, k) => {
      const { key, check } = part.keyed[k]!;
      if (group.passed) this.cache.refresh(key, r.state, check.durationMs);
      else this.cache.remember(key, r.state, check.durationMs);
    });
  }

  /**
   * The answer of a group decided whole in one script call (given out by the returned function):
   * the script committed all of it or none, so nothing is refunded. Answers as settle would.
   */
  private settleWhole(part: Part<Pending>, outcome: Outcome): () => void {
    const pending = part.group;
    if (!outcome.ok) return this.settle(pending, [{ part, outcome }], []);
    const decoded = outcome.group.results;
    const results = new Array<LimitCheckResult>(decoded.length);
    let passed = true;
    for (let k = 0; k < decoded.length; k++) {
      const r = decoded[k]!;
      results[part.indexes[k]!] = checkResult(r);
      if (!r.passed) passed = false;
    }
    return () => pending.resolve({ passed, results });
  }

  /** Combines a group's parts into its answer (given out by the returned function); queues refunds. */
  private settle(pending: Pending, parts: { part: Part<Pending>; outcome: Outcome }[], refunds: { part: Part<Pending>; results: readonly LimitCheckResult[] }[]): () => void {
    const committed = parts.flatMap(({ part, outcome }) => (outcome.ok && outcome.group.passed ? [{ part, results: outcome.group.results }] : []));
    const failed = parts.flatMap(({ outcome }) => (outcome.ok ? [] : [outcome.error]));
    const bug = failed.find((error) => !isUnavailable(error));
    this.stats.unavailable += failed.filter(isUnavailable).length;
    if (bug !== undefined || (failed.length > 0 && this.options.failMode === 'closed')) {
      refunds.push(...committed);
      if (bug !== undefined) return () => pending.reject(bug);
      this.warning.warn(failed[0], 'rate limiter: Redis unavailable, failing closed');
      return () => pending.reject(new ServiceUnavailableError('The rate limiter cannot reach Redis.', { cause: failed[0] }));
    }
    if (failed.length > 0) this.warning.warn(failed[0], 'rate limiter: Redis unavailable, failing open');
    const results = new Array<LimitCheckResult>(pending.keyed.length);
    const nowMs = this.localNow();
    for (const { part, outcome } of parts) {
      part.indexes.forEach((index, k) => {
        if (!outcome.ok) results[index] = failOpenResult(part.keyed[k]!.check, nowMs);
        else results[index] = checkResult(outcome.group.results[k]!);
      });
    }
    const passed = results.every((r) => r.passed);
    if (!passed && committed.length > 0) {
      refunds.push(...committed);
      // Those parts are given back: report what is still available (remaining before the cost).
      for (const { part } of committed) {
        part.indexes.forEach((index, k) => {
          const r = results[index]!;
          results[index] = { ...r, remaining: r.remaining + part.keyed[k]!.check.cost };
        });
      }
    }
    return () => pending.resolve({ passed, results });
  }

  private async refund(refunds: readonly { part: Part<Pending>; results: readonly LimitCheckResult[] }[]): Promise<void> {
    const calls = refunds.flatMap(({ part, results }) => {
      const call = encodeRefundCall(part.keyed, results);
      return call ? [{ slot: part.keyed[0]!.slot, counters: part.keyed.map((k) => k.key), ...call }] : [];
    });
    this.stats.refundsSent += calls.length;
    const replies = await sendScripts(this.client, REFUND, calls);
    calls.forEach((call, i) => {
      for (const counter of call.counters) this.cache.forget(counter);
      const reply = replies[i]!;
      // Not retried (it may have run); the surplus only denies early and expires with the window.
      if (!reply.ok) this.warning.warn(reply.error, 'rate limiter: refund of a multi-owner group failed');
    });
  }
}
