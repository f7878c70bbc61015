/**
 * Cache invalidation across replicas over Redis pub/sub. A replica that changes a record evicts
 * its own cache entry at once and publishes the change; every replica (itself included) evicts on
 * receipt. Pub/sub delivers at most once: while the subscription cannot be trusted, the bus
 * reports itself not live (the cache is then bypassed and emptied) and tells its listeners when it
 * is live again (they empty the cache once more: anything read meanwhile may be old).
 *
 * Trust is checked end to end: twice a second the bus publishes a heartbeat through the same path
 * as real changes and expects to receive it. A closed connection, a hung node (TCP open, nothing
 * answers) and a node cut off from the cluster's message bus all look the same: no heartbeat.
 *
 * The subscriber is a plain connection to one node: PUBLISH in a Redis Cluster reaches the
 * subscribers of every node. If that node stays unreachable, the bus moves to the next seed node.
 */
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../obs/log.js';
import type { RedisClient, RedisSettings } from '../redis/client.js';

/** What changed: a cache area and, for single entries, the entry's key within it. */
export interface Invalidation {
  readonly area: string;
  /** Absent: every entry of the area. */
  readonly key?: string;
}

export interface InvalidationListener {
  onMessage(message: Invalidation): void;
  /** The subscription is down (messages may be lost from now on) or back up (some may have been). */
  onLiveChanged(live: boolean): void;
}

/** Failed reconnects to one node before the bus tries the next seed node. */
const ATTEMPTS_PER_NODE = 3;
const HEARTBEAT_MS = 500;
/**
 * A heartbeat not received this long after it was sent means messages may be getting lost. On a
 * Cluster the wait starts once a master accepted the PUBLISH: one that went to a master that stopped
 * answering says nothing about the subscriber's node, and must not empty the cache while it works.
 */
const HEARTBEAT_DEADLINE_MS = 1_000;
/** On a Cluster, no heartbeat back for this long (none could be published) means the same. */
const NO_ROUND_TRIP_LIMIT_MS = 5_000;
const HEARTBEAT_AREA = '__heartbeat';

export class RedisInvalidationBus {
  private readonly listeners: InvalidationListener[] = [];
  private readonly seeds: (string | { host: string; port: number })[];
  private readonly instance = randomBytes(8).toString('hex');
  private nodeIndex = 0;
  private subscriber: Redis | undefined;
  private closed = false;
  private timer: NodeJS.Timeout | undefined;
  /** The heartbeat in flight: its number, when it was sent and, once Redis accepted it, when. */
  private pending: { beat: number; sentAtMs: number; acceptedAtMs?: number } | undefined;
  /** One Redis: the publish goes to the subscriber's own server, so its wait starts when sent. */
  private readonly standalone: boolean;
  /** When a heartbeat last came back (or the subscription became live). */
  private lastRoundTripMs = 0;
  private beats = 0;
  private firstSubscribed: (() => void) | undefined;
  live = false;

  constructor(private readonly publisher: RedisClient, settings: RedisSettings, private readonly channel: string, private readonly log: Logger) {
    // A URL keeps everything it says (rediss:// TLS, credentials, database) for the subscriber too.
    this.standalone = !(settings.clusterNodes && settings.clusterNodes.length > 0);
    this.seeds = this.standalone ? [settings.url!] : [...settings.clusterNodes!];
  }

  listen(listener: InvalidationListener): void {
    this.listeners.push(listener);
  }

  /**
   * Connects and keeps trying (the cache stays bypassed until subscribed). Resolves once
   * subscribed the first time; with `timeoutMs`, rejects after that long with a clear message
   * (the connection attempts go on).
   */
  async start(timeoutMs?: number): Promise<void> {
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.timer.unref();
    await new Promise<void>((resolve, reject) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => {
        this.firstSubscribed = undefined;
        reject(new Error(`could not subscribe to the cache invalidation channel within ${timeoutMs} ms`));
      }, timeoutMs);
      this.firstSubscribed = () => { clearTimeout(timer); resolve(); };
      this.connect();
    });
  }

  private connect(): void {
    const seed = this.seeds[this.nodeIndex % this.seeds.length]!;
    let failures = 0;
    const options: RedisOptions = {
      connectionName: 'keygate:invalidation',
      connectTimeout: 2_000,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => {
        failures = attempt;
        return Math.min(attempt * 50, 500);
      },
    };
    const subscriber = typeof seed === 'string' ? new Redis(seed, options) : new Redis({ ...seed, ...options });
    this.subscriber = subscriber;
    subscriber.on('message', (channelName: string, text: string) => {
      if (channelName === this.channel) this.receive(text);
    });
    subscriber.on('error', () => { /* reported through 'close' */ });
    subscriber.on('close', () => {
      this.setLive(false);
      if (!this.closed && failures >= ATTEMPTS_PER_NODE && this.seeds.length > 1 && this.subscriber === subscriber) {
        // This node keeps failing: subscribe through the next one instead.
        subscriber.disconnect();
        this.nodeIndex++;
        this.connect();
      }
    });
    subscriber.on('ready', () => {
      failures = 0;
      // ioredis subscribes again by itself after a reconnect; the first time, we do.
      void subscriber.subscribe(this.channel).then(() => {
        this.pending = undefined;
        this.setLive(true);
        const first = this.firstSubscribed;
        this.firstSubscribed = undefined;
        first?.();
      }, (err: unknown) => this.log.warn({ err }, 'cache invalidation: subscribe failed'));
    });
  }

  private receive(text: string): void {
    let message: Invalidation;
    try {
      message = JSON.parse(text) as Invalidation;
    } catch {
      return;
    }
    if (message.area === HEARTBEAT_AREA) {
      if (this.pending && message.key === `${this.instance}:${this.pending.beat}`) {
        this.pending = undefined;
        this.lastRoundTripMs = Date.now();
      }
      return;
    }
    for (const listener of this.listeners) listener.onMessage(message);
  }

  /** Checks that the last heartbeat came back, then sends the next one. */
  private heartbeat(): void {
    if (!this.live || this.closed) return;
    const now = Date.now();
    const waitingSince = this.standalone ? this.pending?.sentAtMs : this.pending?.acceptedAtMs;
    if ((waitingSince !== undefined && now - waitingSince > HEARTBEAT_DEADLINE_MS) || now - this.lastRoundTripMs > NO_ROUND_TRIP_LIMIT_MS) {
      this.log.warn('cache invalidation messages are not coming through: reconnecting, cache bypassed meanwhile');
      this.setLive(false);
      this.pending = undefined;
      this.subscriber?.disconnect(true);
      return;
    }
    if (this.pending) return;
    const beat = ++this.beats;
    this.pending = { beat, sentAtMs: now };
    // On a Cluster a failed publish proves nothing about the subscription: the next tick sends
    // another beat. On one Redis it stays pending and the deadline decides.
    this.publish({ area: HEARTBEAT_AREA, key: `${this.instance}:${beat}` }).then(
      () => { if (this.pending?.beat === beat) this.pending.acceptedAtMs = Date.now(); },
      () => { if (!this.standalone && this.pending?.beat === beat) this.pending = undefined; },
    );
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    if (live) this.lastRoundTripMs = Date.now();
    if (!live && !this.closed) this.log.warn('cache invalidation channel lost: the record cache is bypassed until it is back');
    if (live) this.log.info('cache invalidation channel subscribed');
    for (const listener of this.listeners) listener.onLiveChanged(live);
  }

  async publish(message: Invalidation): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.subscriber?.disconnect();
  }
}
