/**
 * Batching for the Redis limiter, so script calls grow slower than checks: groups queued during one
 * event-loop turn are flushed together; the flush buckets them by Cluster slot so that each slot
 * gets one script call carrying all its groups, and calls for one node go out as one pipeline.
 */
import { Cluster } from 'ioredis';
import type { RedisClient } from '../redis/client.js';
import type { LuaScript } from '../redis/scripts.js';
import type { KeyedCheck, ScriptCall } from './redis-check-call.js';

/** Collects items until the end of the current turn (setImmediate), then hands them over at once. */
export class TurnQueue<T> {
  private items: T[] = [];
  private scheduled = false;

  constructor(private readonly flush: (items: T[]) => void) {}

  push(item: T): void {
    this.items.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const items = this.items;
      this.items = [];
      this.flush(items);
    });
  }
}

/** The checks of one group that live in one slot (indexes into the group's checks). */
export interface Part<G> {
  readonly group: G;
  readonly indexes: readonly number[];
  readonly keyed: readonly KeyedCheck[];
}

/** Parts per slot, in arrival order. */
export type Round<G> = Map<number, Part<G>[]>;

/** The one slot of all the checks, or null (none, or more than one). */
function singleSlotOf(keyed: readonly KeyedCheck[]): number | null {
  if (keyed.length === 0) return null;
  const slot = keyed[0]!.slot;
  for (let i = 1; i < keyed.length; i++) if (keyed[i]!.slot !== slot) return null;
  return slot;
}

/** [0, 1, … n-1], shared: parts only read their indexes. */
const INDEXES: number[][] = [];
function indexesUpTo(n: number): number[] {
  return INDEXES[n] ??= Array.from({ length: n }, (_, i) => i);
}

/**
 * Splits groups into rounds that run one after the other. Single-slot groups ride in the
 * earliest round their slot allows. A group spanning slots takes one round for all its parts;
 * later groups touching any of those slots wait for the next round, because the spanning group
 * may still be refunded, and later groups must see its final outcome (groups run in order).
 */
export function planRounds<G extends { readonly keyed: readonly KeyedCheck[] }>(groups: readonly G[]): Round<G>[] {
  const rounds: Round<G>[] = [];
  const nextRound = new Map<number, number>();
  for (const group of groups) {
    const slot = singleSlotOf(group.keyed);
    if (slot !== null) {
      // Most groups live in one slot: one part of all their checks, and nothing else to make.
      const round = nextRound.get(slot) ?? 0;
      const target = rounds[round] ?? (rounds[round] = new Map());
      const part: Part<G> = { group, indexes: indexesUpTo(group.keyed.length), keyed: group.keyed };
      const list = target.get(slot);
      if (list) list.push(part); else target.set(slot, [part]);
      continue;
    }
    const bySlot = new Map<number, { group: G; indexes: number[]; keyed: KeyedCheck[] }>();
    group.keyed.forEach((k, i) => {
      const part = bySlot.get(k.slot) ?? { group, indexes: [], keyed: [] };
      part.indexes.push(i);
      part.keyed.push(k);
      bySlot.set(k.slot, part);
    });
    const round = Math.max(...[...bySlot.keys()].map((slot) => nextRound.get(slot) ?? 0));
    if (bySlot.size > 1) for (const slot of bySlot.keys()) nextRound.set(slot, round + 1);
    const target = rounds[round] ?? (rounds[round] = new Map());
    for (const [slot, part] of bySlot) {
      const list = target.get(slot);
      if (list) list.push(part); else target.set(slot, [part]);
    }
  }
  return rounds.filter((r) => r !== undefined);
}

/** Cuts a slot's parts into calls of at most `maxChecks` checks (one part is never split). */
export function chunkParts<P extends { readonly keyed: readonly unknown[] }>(parts: readonly P[], maxChecks: number): P[][] {
  const chunks: P[][] = [];
  let current: P[] = [];
  let size = 0;
  for (const part of parts) {
    if (current.length > 0 && size + part.keyed.length > maxChecks) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(part);
    size += part.keyed.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export type Settled = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export interface SlotCall extends ScriptCall {
  readonly slot: number;
}

const settle = (promise: Promise<unknown>): Promise<Settled> => promise.then((value) => ({ ok: true, value }), (error: unknown) => ({ ok: false, error }));

const isNoScript = (error: unknown): boolean => error instanceof Error && error.message.startsWith('NOSCRIPT');

/**
 * Which calls may share a pipeline: one group for a standalone Redis; on a Cluster, slots with the
 * same node list (master and replicas), which is exactly what ioredis requires of a pipeline (after
 * a MOVED it may know only the master of one slot while it lists the replicas of another).
 */
export function nodeOf(client: RedisClient, slot: number): string {
  if (!(client instanceof Cluster)) return 'standalone';
  const list = client.slots[slot];
  if (list === undefined) return `unmapped:${slot}`;
  let known = nodeNames.get(client);
  if (known === undefined) nodeNames.set(client, known = new Map());
  const seen = known.get(slot);
  if (seen !== undefined && sameNodes(seen.nodes, list)) return seen.name;
  const name = list.join(';');
  known.set(slot, { nodes: [...list], name });
  return name;
}

/**
 * nodeOf's names per Cluster client and slot, with the node list each was made from: every check
 * asks, and joining the list each time made a string per check. Compared by content, not by the
 * array: ioredis changes a slot's list in place when the Cluster's layout changes.
 */
const nodeNames = new WeakMap<Cluster, Map<number, { readonly nodes: readonly string[]; readonly name: string }>>();

function sameNodes(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Sends every call at once: one pipeline per node when a node gets several calls, else a plain
 * EVALSHA. Never retries a failed call (a timed-out script may have run), except on NOSCRIPT,
 * which means the script did not run: then the source is sent once with EVAL.
 */
export async function sendScripts(client: RedisClient, script: LuaScript, calls: readonly SlotCall[]): Promise<Settled[]> {
  const out: Settled[] = new Array<Settled>(calls.length);
  const byNode = new Map<string, number[]>();
  calls.forEach((call, i) => {
    const node = nodeOf(client, call.slot);
    const list = byNode.get(node);
    if (list) list.push(i); else byNode.set(node, [i]);
  });
  // Each call's keys once (a `once` script's include the call's own id), for EVALSHA and EVAL alike.
  const keysOf = calls.map((call) => script.callKeys(call.keys));
  // Replies as Buffers: the check script's is one binary string (lua/ratelimit-check.lua).
  const evalSource = (i: number): Promise<unknown> => client.callBuffer('EVAL', script.source, keysOf[i]!.length, ...keysOf[i]!, ...calls[i]!.args);
  await Promise.all([...byNode.values()].map(async (indexes) => {
    if (indexes.length === 1) {
      const i = indexes[0]!;
      out[i] = await settle(client.callBuffer('EVALSHA', script.sha, keysOf[i]!.length, ...keysOf[i]!, ...calls[i]!.args)
        .catch((err: unknown) => (isNoScript(err) ? evalSource(i) : Promise.reject(err))));
      return;
    }
    const pipeline = client.pipeline();
    for (const i of indexes) pipeline.callBuffer('EVALSHA', script.sha, keysOf[i]!.length, ...keysOf[i]!, ...calls[i]!.args);
    const replies = await settle(pipeline.exec());
    await Promise.all(indexes.map(async (i, j) => {
      if (!replies.ok) {
        out[i] = replies;
        return;
      }
      const [error, value] = (replies.value as [Error | null, unknown][] | null)?.[j] ?? [new Error('pipeline returned no reply'), null];
      out[i] = !error ? { ok: true, value } : isNoScript(error) ? await settle(evalSource(i)) : { ok: false, error };
    }));
  }));
  return out;
}
