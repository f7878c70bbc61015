/**
 * The safety net under pub/sub: a change whose invalidation message never goes out (the replica
 * that made it lost its connection right after the write, or stopped for good) still reaches every
 * other replica once what they remember has expired, within twice CACHE_TTL_MS (a record cached
 * for one, and a verification entry or remembered root key built from it for one more), as
 * docs/distributed.md promises. Replica 0 connects as a Redis user that may not PUBLISH, so none
 * of its invalidations ever goes out; replica 1 has the key and the root key remembered.
 */
import { describe, expect, test } from 'vitest';
import { ok, useReplicasOneWithoutPublish } from '../support/replicas.js';
import { callKeygate } from '../support/harness.js';

const TTL_MS = 1_000;
/** The documented bound, and time for the poll and the calls themselves on a busy machine. */
const WITHIN_MS = 2 * TTL_MS + 1_500;

describe('distributed: an invalidation that never goes out', () => {
  const setup = useReplicasOneWithoutPublish({ CACHE_TTL_MS: String(TTL_MS) });

  test('a revoked root key and a deleted key stop on the other replica within twice CACHE_TTL_MS', async () => {
    const { r } = setup;
    const { apiId } = await ok(r.call(1, 'apis.createApi', { name: 'lost-invalidation' }));
    const { key, keyId } = await ok(r.call(1, 'keys.createKey', { apiId }));
    const { key: rootKey, rootKeyId } = await ok(r.call(1, 'rootKeys.createRootKey', { name: 'verifier', permissions: ['api.*.verify_key'] }));
    const verifyAs = (bearer: string) => callKeygate(r.processes[1]!.url, '/v2/keys.verifyKey', { key }, { rootKey: bearer });
    // Used on replica 1 again and again, as steady traffic keeps both remembered there.
    for (let i = 0; i < 3; i++) {
      const res = await verifyAs(rootKey);
      expect(res.status).toBe(200);
      expect((res.body as any).data.code).toBe('VALID');
    }

    await ok(r.call(0, 'rootKeys.revokeRootKey', { rootKeyId }));
    await ok(r.call(0, 'keys.deleteKey', { keyId }));
    const changed = Date.now();
    await expect.poll(() => r.processes[0]!.output(), { timeout: 2_000 }).toContain('cache invalidation could not be published: retrying');

    await expect.poll(async () => (await verifyAs(rootKey)).status, { timeout: WITHIN_MS, interval: 50 }).toBe(401);
    await expect.poll(async () => (await ok(r.call(1, 'keys.verifyKey', { key }))).code, { timeout: WITHIN_MS, interval: 50 }).toBe('NOT_FOUND');
    expect(Date.now() - changed).toBeLessThan(WITHIN_MS);
    // Nothing brings them back: replica 1 reads the revocation and the deletion from Redis from now on.
    await new Promise((resolve) => setTimeout(resolve, TTL_MS));
    expect((await verifyAs(rootKey)).status).toBe(401);
    expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('NOT_FOUND');
  }, 60_000);
});
