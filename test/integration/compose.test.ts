/**
 * docker-compose.yml as an operator uses it: `docker compose config` accepts it, and it describes
 * the documented deployment (3-master cluster that tolerates a lost master, three replicas on it,
 * a load balancer in front). No Docker engine runs here, so nothing is started.
 */
import { describe, expect, test } from 'vitest';
import { run } from '../support/process.js';

describe('docker-compose.yml', () => {
  test('is accepted by docker-compose config and describes cluster, replicas and load balancer', async () => {
    const result = await run('docker-compose', ['config'], { KEYGATE_ROOT_KEY: 'compose-test-root-key-123' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = result.stdout;
    for (const service of ['redis-1', 'redis-2', 'redis-3', 'redis-cluster-create', 'keygate-1', 'keygate-2', 'keygate-3', 'load-balancer']) {
      expect(text).toMatch(new RegExp(`^  ${service}:$`, 'm'));
    }
    expect(text.match(/REDIS_CLUSTER_NODES: redis-1:6379,redis-2:6379,redis-3:6379/g)).toHaveLength(3);
    expect(text.match(/--cluster-require-full-coverage no/g)).toHaveLength(3);
    expect(text).toContain('server keygate-3:8080');
    expect(text).toContain('ROOT_KEY: compose-test-root-key-123');
    // A replica stopped for an upgrade drains (SHUTDOWN_GRACE_MS, 10 s) before Docker kills it.
    expect(text.match(/stop_grace_period: 15s/g)).toHaveLength(3);
  });

  test('is accepted without a root key too (root keys are then made with the CLI)', async () => {
    const result = await run('docker-compose', ['config', '-q'], {});
    expect(result.code).toBe(0);
  });
});
