/** The test Redis servers themselves: a user of the Redis mode relies on these being real. */
import { Cluster, Redis } from 'ioredis';
import { describe, expect, inject, test } from 'vitest';

describe('test Redis servers', () => {
  test('the standalone server answers and keeps values', async () => {
    const redis = new Redis(inject('redisUrl'));
    try {
      await redis.set('kg-test:smoke', 'ok');
      expect(await redis.get('kg-test:smoke')).toBe('ok');
    } finally {
      redis.disconnect();
    }
  });

  test('the cluster has three masters covering all 16384 slots', async () => {
    const nodes = inject('redisClusterNodes').split(',').map((n) => ({ host: n.split(':')[0]!, port: Number(n.split(':')[1]) }));
    const cluster = new Cluster(nodes);
    try {
      const info = await cluster.cluster('INFO');
      expect(info).toContain('cluster_state:ok');
      expect(info).toContain('cluster_slots_assigned:16384');
      expect(cluster.nodes('master')).toHaveLength(3);
    } finally {
      cluster.disconnect();
    }
  });
});
