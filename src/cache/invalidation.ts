/**
 * Cache invalidation across replicas over Redis pub/sub. A replica that changes a record evicts
 * its own cache entry at once and publishes the change; every replica (itself included) evicts on
 * receipt. Pub/sub delivers at most once: while the subscription is down, messages are lost, so
 * the bus reports itself not live (the cache is then bypassed and emptied) and tells its listeners
 * when it is subscribed again (they empty the cache once more: anything read meanwhile may be old).
 *
 * The subscriber is a plain connection to one node: PUBLISH in a Redis Cluster reaches the
 * subscribers of every node. If that node stays unreachable, the bus moves to the next seed node.
 */
import { Redis } from 'ioredis';
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
/**
 * A node that hangs (TCP open, nothing answers) never closes the connection, so the bus pings its
 * subscriber this often and reconnects when a ping is not answered within the same time.
 */
const HEARTBEAT_MS = 1_000;

export class RedisInvalidationBus {
  private readonly listeners: InvalidationListener[] = [];
  private readonly nodes: { host: string; port: number; db?: number; password?: string; username?: string }[];
  private nodeIndex = 0;
  private subscriber: Redis | undefined;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  live = false;

  constructor(private readonly publisher: RedisClient, settings: RedisSettings, private readonly channel: string, private readonly log: Logger) {
    if (settings.clusterNodes && settings.clusterNodes.length > 0) this.nodes = [...settings.clusterNodes];
    else {
      const url = new URL(settings.url!);
      this.nodes = [{
        host: url.hostname, port: Number(url.port || 6379),
        ...(url.pathname.length > 1 ? { db: Number(url.pathname.slice(1)) } : {}),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      }];
    }
  }

  listen(listener: InvalidationListener): void {
    this.listeners.push(listener);
  }

  /** Resolves once subscribed the first time. */
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.connect(resolve));
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private checkAlive(): void {
    const subscriber = this.subscriber;
    if (!subscriber || !this.live) return;
    const timer = setTimeout(() => {
      this.log.warn('cache invalidation channel does not answer: reconnecting');
      this.setLive(false);
      subscriber.disconnect(true);
    }, HEARTBEAT_MS);
    subscriber.ping().then(() => clearTimeout(timer), () => { /* the timer decides */ });
  }

  private connect(firstSubscribed?: () => void): void {
    const node = this.nodes[this.nodeIndex % this.nodes.length]!;
    let failures = 0;
    const subscriber = new Redis({
      ...node,
      connectionName: 'keygate:invalidation',
      enableOfflineQueue: true,
      connectTimeout: 2_000,
      maxRetriesPerRequest: null,
      retryStrategy: (attempt) => {
        failures = attempt;
        return Math.min(attempt * 50, 500);
      },
    });
    this.subscriber = subscriber;
    subscriber.on('message', (channelName: string, text: string) => {
      if (channelName !== this.channel) return;
      let message: Invalidation;
      try {
        message = JSON.parse(text) as Invalidation;
      } catch {
        return;
      }
      for (const listener of this.listeners) listener.onMessage(message);
    });
    subscriber.on('error', () => { /* reported through 'close'; ioredis logs nothing itself */ });
    subscriber.on('close', () => {
      this.setLive(false);
      if (!this.closed && failures >= ATTEMPTS_PER_NODE && this.nodes.length > 1 && this.subscriber === subscriber) {
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
        this.setLive(true);
        firstSubscribed?.();
        firstSubscribed = undefined;
      }, (err: unknown) => this.log.warn({ err }, 'cache invalidation: subscribe failed'));
    });
  }

  private setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    if (!live && !this.closed) this.log.warn('cache invalidation channel lost: the key cache is bypassed until it is back');
    if (live) this.log.info('cache invalidation channel subscribed');
    for (const listener of this.listeners) listener.onLiveChanged(live);
  }

  async publish(message: Invalidation): Promise<void> {
    await this.publisher.publish(this.channel, JSON.stringify(message));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.subscriber?.disconnect();
  }
}
