/**
 * A change whose invalidation message could not be published is published again until it goes
 * out: the other replicas stop answering from their cache as soon as Redis takes the message,
 * not CACHE_TTL_MS later. Replica 0 connects as a Redis user that may not PUBLISH (the write
 * itself succeeds), which stands in for a connection lost between a write and its PUBLISH; the
 * permission is then given back.
 */
import { describe, expect, test } from 'vitest';
import { ok, useReplicasOneWithoutPublish } from '../support/replicas.js';

describe('distributed: an invalidation that could not be published', () => {
  const setup = useReplicasOneWithoutPublish({ CACHE_TTL_MS: '60000' });

  test('is retried: the other replica answers NOT_FOUND for a deleted key within seconds of Redis taking it, not after the TTL', async () => {
    const { r } = setup;
    const { apiId } = await ok(r.call(1, 'apis.createApi', { name: 'publish-retry' }));
    const { key, keyId } = await ok(r.call(1, 'keys.createKey', { apiId }));
    for (let i = 0; i < 2; i++) expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('VALID');

    await ok(r.call(0, 'keys.deleteKey', { keyId }));
    expect((await ok(r.call(0, 'keys.verifyKey', { key }))).code).toBe('NOT_FOUND');
    // The message did not go out: replica 1 still answers from its cache (the window this closes).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await ok(r.call(1, 'keys.verifyKey', { key }))).code).toBe('VALID');
    expect(r.processes[0]!.output()).toContain('cache invalidation could not be published: retrying');

    setup.allowPublish();
    const given = Date.now();
    await expect.poll(async () => (await ok(r.call(1, 'keys.verifyKey', { key }))).code, { timeout: 5_000, interval: 50 }).toBe('NOT_FOUND');
    expect(Date.now() - given).toBeLessThan(5_000);
    await expect.poll(() => r.processes[0]!.output(), { timeout: 2_000 }).toContain('cache invalidations published after a retry');
  }, 60_000);
});
