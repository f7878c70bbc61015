/**
 * The record cache of two replicas, kept fresh over real Redis pub/sub: a change on one evicts on
 * the other; a lost subscription empties and bypasses the cache until it is back.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, inject, test } from 'vitest';
import { RedisInvalidationBus } from '../../src/cache/invalidation.js';
import { createLogger } from '../../src/obs/log.js';
import { createRedis, waitUntilReady, type RedisClient } from '../../src/redis/client.js';
import { RecordCache } from '../../src/storage/cached/record-cache.js';
import { cli, freeRedisPort, startRedisStandalone } from '../support/redis-servers.js';

const log = createLogger('silent', new Writable({ write(_c, _e, done) { done(); } }));

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<number> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 2));
  }
  return Date.now() - start;
}

describe('record cache over Redis pub/sub', () => {
  const url = inject('redisUrl');
  const settings = { url, commandTimeoutMs: 1_000, keyPrefix: `kg-test-inv-${Date.now()}:` };
  const opened: { bus: RedisInvalidationBus; client: RedisClient }[] = [];
  afterEach(async () => {
    for (const { bus, client } of opened.splice(0)) {
      await bus.close();
      client.disconnect();
    }
  });

  async function replica(): Promise<{ bus: RedisInvalidationBus; cache: RecordCache }> {
    const client = createRedis(settings, 'test');
    await waitUntilReady(client, 'redis', 5_000);
    const bus = new RedisInvalidationBus(client, settings, `${settings.keyPrefix}invalidate`, log);
    opened.push({ bus, client });
    await bus.start(5_000);
    return { bus, cache: new RecordCache(bus, { maxEntries: 1_000, ttlMs: 60_000 }, log) };
  }

  test('a change published by one replica evicts the entry on the other', async () => {
    const a = await replica();
    const b = await replica();
    let stored = 'v1';
    const load = async () => stored;
    expect(await b.cache.read('key', 'h1', load)).toBe('v1');
    stored = 'v2';
    expect(await b.cache.read('key', 'h1', load)).toBe('v1'); // served from memory
    await a.cache.changed('key', 'h1');
    await until(() => b.cache.size === 0);
    expect(await b.cache.read('key', 'h1', load)).toBe('v2');
  });

  test('an area-wide change empties that area only', async () => {
    const a = await replica();
    const b = await replica();
    await b.cache.read('key', 'h1', async () => 1);
    await b.cache.read('api', 'api_1', async () => 2);
    await a.cache.changed('key');
    await until(() => b.cache.size === 1);
    expect(await b.cache.read('api', 'api_1', async () => 99)).toBe(2);
  });

  test('a read that overlaps an eviction does not store its (possibly old) value', async () => {
    const { cache } = await replica();
    let release!: () => void;
    const slow = cache.read('key', 'h2', () => new Promise<string>((resolve) => { release = () => resolve('old'); }));
    await cache.changed('key', 'h2');
    release();
    expect(await slow).toBe('old');
    expect(cache.size).toBe(0);
  });

  test('a killed subscription bypasses and empties the cache, and it is used again once back', async () => {
    const { bus, cache } = await replica();
    let loads = 0;
    const load = async () => ++loads;
    await cache.read('key', 'h3', load);
    await cache.read('key', 'h3', load);
    expect(loads).toBe(1);
    cli(Number(new URL(url).port), ['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await until(() => !bus.live);
    expect(cache.size).toBe(0);
    await cache.read('key', 'h3', load);
    await until(() => bus.live);
    // Back and subscribed: the next read loads once more, then the cache serves it.
    await cache.read('key', 'h3', load);
    await cache.read('key', 'h3', load);
    expect(loads).toBe(3);
  });
});

describe('record cache when the subscribed node hangs', () => {
  test('a node that stops answering (SIGSTOP) is noticed by the heartbeat: the cache is bypassed', async () => {
    const server = await startRedisStandalone();
    const settings = { url: server.url, commandTimeoutMs: 500, keyPrefix: 'kg-test-hang:' };
    const client = createRedis(settings, 'test');
    const bus = new RedisInvalidationBus(client, settings, 'kg-test-hang:invalidate', log);
    try {
      await waitUntilReady(client, 'redis', 5_000);
      await bus.start(5_000);
      const cache = new RecordCache(bus, { maxEntries: 100, ttlMs: 60_000 }, log);
      await cache.read('key', 'h', async () => 'cached');
      process.kill(server.pid, 'SIGSTOP');
      const noticedAfterMs = await until(() => !bus.live, 5_000);
      expect(noticedAfterMs).toBeLessThan(3_000);
      expect(cache.size).toBe(0);
      process.kill(server.pid, 'SIGCONT');
      await until(() => bus.live, 10_000);
    } finally {
      try { process.kill(server.pid, 'SIGCONT'); } catch { /* already gone */ }
      await bus.close();
      client.disconnect();
      await server.stop(true);
    }
  });
});

describe('invalidation bus start-up', () => {
  const clusterNodes = () => inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));

  test('a first seed node that is down: the bus subscribes through the next one', async () => {
    const dead = { host: '127.0.0.1', port: await freeRedisPort() };
    const settings = { clusterNodes: [dead, ...clusterNodes()], commandTimeoutMs: 1_000, keyPrefix: 'kg-test-seed:' };
    const client = createRedis({ ...settings, clusterNodes: clusterNodes() }, 'test');
    const bus = new RedisInvalidationBus(client, settings, 'kg-test-seed:invalidate', log);
    try {
      await waitUntilReady(client, 'redis', 5_000);
      await bus.start(10_000);
      expect(bus.live).toBe(true);
    } finally {
      await bus.close();
      client.disconnect();
    }
  });

  test('nothing reachable: start() gives up with a clear message instead of hanging', async () => {
    const settings = { url: `redis://127.0.0.1:${await freeRedisPort()}`, commandTimeoutMs: 100, keyPrefix: 'kg-test-none:' };
    const client = createRedis(settings, 'test');
    const bus = new RedisInvalidationBus(client, settings, 'kg-test-none:invalidate', log);
    try {
      await expect(bus.start(1_000)).rejects.toThrow(/could not subscribe to the cache invalidation channel/);
    } finally {
      await bus.close();
      client.disconnect();
    }
  });
});
