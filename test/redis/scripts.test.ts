/** LuaScript: EVALSHA first, EVAL once a node does not know the script (new node, SCRIPT FLUSH). */
import { describe, expect, inject, test } from 'vitest';
import { createRedis } from '../../src/redis/client.js';
import { LuaScript } from '../../src/redis/scripts.js';

const script = new LuaScript('test-incr', "return redis.call('INCRBY', KEYS[1], ARGV[1])");

describe('LuaScript on a real Redis', () => {
  test('runs by SHA, and sends the source again after SCRIPT FLUSH', async () => {
    const redis = createRedis({ url: inject('redisUrl'), commandTimeoutMs: 1_000, keyPrefix: '' }, 'test');
    try {
      await new Promise((r) => redis.once('ready', r));
      const key = `kg-test:script:${Date.now()}`;
      expect(await script.run(redis, [key], [2])).toBe(2);
      expect(await redis.script('EXISTS', script.sha)).toEqual([1]);
      await redis.script('FLUSH');
      expect(await script.run(redis, [key], [3])).toBe(5);
      expect(await redis.script('EXISTS', script.sha)).toEqual([1]);
    } finally {
      redis.disconnect();
    }
  });

  test('on a cluster, calls go to the node owning the keys\' slot; keys of several slots are refused', async () => {
    const nodes = inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));
    const cluster = createRedis({ clusterNodes: nodes, commandTimeoutMs: 1_000, keyPrefix: '' }, 'test');
    try {
      await new Promise((r) => cluster.once('ready', r));
      for (let i = 0; i < 20; i++) expect(await script.run(cluster, [`kg-test:{owner${i}}:n`], [1])).toBeGreaterThan(0);
      await expect(script.run(cluster, ['kg-test:{a}:n', 'kg-test:{b}:n'], [1])).rejects.toThrow(/CROSSSLOT|slot/i);
    } finally {
      cluster.disconnect();
    }
  });
});
