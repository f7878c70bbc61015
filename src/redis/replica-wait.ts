/**
 * ReplicaWait: after a key-record write, Redis WAIT on every master that was written to, so that
 * an acknowledged createKey or updateKey is on the master's replicas too and survives a failover.
 *
 * WAIT counts the writes of the connection it arrives on, so it must travel on the connection
 * that wrote: a pipeline holding one key of the written slot makes a Cluster send it to that
 * slot's master over its usual connection (a bare WAIT has no key and would go to any node).
 * WAIT also blocks that connection until the replicas answer, which is why the writes that wait
 * have a connection of their own (wiring/redis.ts): verification reads never queue behind one.
 *
 * Nothing is sent when no replica is expected: 'auto' reads the master's online replicas from
 * INFO replication (at most once a second per master) and skips WAIT when there are none.
 */
import calculateSlot from 'cluster-key-slot';
import { Cluster, type ChainableCommander } from 'ioredis';
import { ServiceUnavailableError } from '../errors/api-error.js';
import type { Logger } from '../obs/log.js';
import { isUnavailable, type RedisClient } from './client.js';

export interface ReplicaWaitSettings {
  /** Replicas each write must reach; 'auto' = those online at the master now; 0 = never wait. */
  readonly replicas: number | 'auto';
  /** WAIT's own timeout: longer than this, and the write is answered as not durable (503). */
  readonly timeoutMs: number;
}

/** How long a master's count of online replicas is trusted before INFO is read again. */
const COUNT_TTL_MS = 1_000;

interface Count {
  readonly value: number;
  readonly atMs: number;
}

/**
 * Runs a pipeline of two commands whose first (a key's EXISTS) only routes it to the key's master,
 * and resolves the second's reply; a failure of either rejects.
 */
async function routedReply(pipeline: ChainableCommander): Promise<unknown> {
  const [route, reply] = (await pipeline.exec()) ?? [];
  const err = route?.[0] ?? reply?.[0];
  if (err) throw err;
  return reply?.[1];
}

/** Replicas of an INFO replication answer that are in sync (`state=online`); others cannot acknowledge. */
export function onlineReplicas(info: string): number {
  return info.split('\n').filter((line) => /^slave\d+:.*\bstate=online\b/.test(line)).length;
}

export class ReplicaWait {
  private readonly counts = new Map<string, Count>();
  private readonly reading = new Map<string, Promise<number>>();
  private warnedInfo = false;

  constructor(private readonly client: RedisClient, private readonly settings: ReplicaWaitSettings, private readonly log: Logger) {}

  /**
   * Resolves once the writes this connection made to the masters holding `keys` are on the
   * required replicas. Rejects with ServiceUnavailableError when fewer acknowledged in time: the
   * write stands on the master, but it is not as durable as an acknowledgement promises.
   */
  async after(keys: readonly string[]): Promise<void> {
    if (this.settings.replicas === 0) return;
    const sampleKeyByNode = new Map<string, string>();
    for (const key of keys) {
      const node = this.nodeOf(key);
      if (!sampleKeyByNode.has(node)) sampleKeyByNode.set(node, key);
    }
    await Promise.all([...sampleKeyByNode].map(([node, key]) => this.waitOn(node, key)));
  }

  private nodeOf(key: string): string {
    if (!(this.client instanceof Cluster)) return 'master';
    const slot = calculateSlot(key);
    return this.client.slots[slot]?.[0] ?? `the master of slot ${slot}`;
  }

  private async waitOn(node: string, key: string): Promise<void> {
    const auto = this.settings.replicas === 'auto';
    const required = auto ? await this.replicasOf(node, key, false) : this.settings.replicas as number;
    if (required === 0) return;
    const reached = Number(await routedReply(this.client.pipeline().exists(key).wait(required, this.settings.timeoutMs)));
    if (reached >= required) return;
    // 'auto' expects the replicas that are there: one that left since the count was read is not awaited.
    if (auto && reached >= await this.replicasOf(node, key, true)) return;
    throw new ServiceUnavailableError(`the write on ${node} reached ${reached} of ${required} replicas within ${this.settings.timeoutMs} ms (REDIS_WAIT_TIMEOUT_MS)`);
  }

  /** Online replicas of the master holding `key`: cached for a second, read again when `fresh`. */
  private async replicasOf(node: string, key: string, fresh: boolean): Promise<number> {
    const known = this.counts.get(node);
    if (!fresh && known && Date.now() - known.atMs < COUNT_TTL_MS) return known.value;
    let reading = this.reading.get(node);
    if (!reading) {
      reading = this.readReplicas(node, key).finally(() => this.reading.delete(node));
      this.reading.set(node, reading);
    }
    return reading;
  }

  private async readReplicas(node: string, key: string): Promise<number> {
    let value = 0;
    try {
      value = onlineReplicas(String(await routedReply(this.client.pipeline().exists(key).info('replication'))));
    } catch (err) {
      if (isUnavailable(err)) throw err;
      // INFO refused (renamed, or denied by an ACL): no count to wait for, so this master is not awaited.
      if (!this.warnedInfo) {
        this.warnedInfo = true;
        this.log.warn({ node, err }, 'cannot read INFO replication: writes do not wait for replicas; set REDIS_WAIT_REPLICAS to a number to wait anyway');
      }
    }
    this.counts.set(node, { value, atMs: Date.now() });
    return value;
  }
}
