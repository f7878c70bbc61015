/**
 * The command-line tool in the distributed mode: root keys and migrations it makes are in Redis
 * for every replica, and a revocation reaches replicas that had the root key cached at once.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { callKeygate } from '../support/harness.js';
import { CLI_JS, run } from '../support/process.js';
import { startReplicas, type Replicas } from '../support/replicas.js';

describe('distributed: keygate root-key / migration on Redis', () => {
  let r: Replicas;
  beforeAll(async () => { r = await startReplicas(2); }, 60_000);
  afterAll(async () => { await r?.stop(); });

  const cli = (...args: string[]) => run(process.execPath, [CLI_JS, ...args], {
    REDIS_CLUSTER_NODES: inject('redisClusterNodes'), REDIS_KEY_PREFIX: r.keyPrefix,
  });
  const createApi = (i: number, rootKey: string) => callKeygate(r.processes[i]!.url, '/v2/apis.createApi', { name: 'cli' }, { rootKey });

  test('a root key created with the CLI works on every replica; revoked, it stops at once on all', async () => {
    const created = await cli('root-key', 'create', '--name', 'ops', '--permission', 'api.*.create_api');
    expect(created.code).toBe(0);
    const { id, key } = JSON.parse(created.stdout);
    for (const i of [0, 1, 0, 1]) expect((await createApi(i, key)).status).toBe(200);

    expect((await cli('root-key', 'revoke', id)).code).toBe(0);
    const revokedAt = Date.now();
    for (const i of [0, 1]) {
      for (;;) {
        const res = await createApi(i, key);
        if (res.status === 401) break;
        expect(Date.now() - revokedAt).toBeLessThan(1_000);
      }
    }
    const listed = JSON.parse((await cli('root-key', 'list')).stdout);
    expect(listed).toContainEqual(expect.objectContaining({ id, name: 'ops' }));
    expect(listed.find((k: { id: string }) => k.id === id).revokedAt).not.toBeNull();
  });

  test('a migration created with the CLI is one migrateKeys accepts on any replica', async () => {
    const created = await cli('migration', 'create', '--algorithm', 'sha256');
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout);
    const apiId = (await r.call(0, 'apis.createApi', { name: 'mig' })).body.data.apiId;
    const res = await r.call(1, 'keys.migrateKeys', { migrationId: id, apiId, keys: [{ hash: 'a'.repeat(64) }] });
    expect(res.status).toBe(200);
    expect(res.body.data.migrated).toHaveLength(1);
  });
});
