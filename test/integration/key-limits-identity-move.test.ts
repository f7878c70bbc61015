/**
 * A key's own limits when the key moves to another identity (keys.updateKey with another
 * externalId), as docs/distributed.md says: the embedded limiter counts them per key,
 * so the count carries on; Redis counts them under the identity's hash tag (every limit of one
 * verification in one slot, decided in one script), so they start afresh. Identity limits are
 * the identities' own either way.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, inject, test } from 'vitest';
import { startHarness } from '../support/harness.js';
import { waitForWindowRoom } from '../support/time.js';

const KEY_LIMIT = { name: 'per-key', limit: 5, duration: 60_000, autoApply: true };

describe.each([
  ['embedded (LMDB)', () => ({}), 1],
  ['Redis', () => ({ redis: { url: inject('redisUrl'), commandTimeoutMs: 2_000, keyPrefix: `kg-test-move-${randomBytes(4).toString('hex')}:` } }), 4],
])('a key-level limit across a move to another identity, %s', (_mode, settings, remainingAfterMove) => {
  test(`after 3 of 5 used, the next verification on the new identity leaves ${remainingAfterMove}`, async () => {
    await waitForWindowRoom(60_000, 15_000);
    const h = await startHarness(settings());
    try {
      const apiId = await h.createApi();
      const { key, keyId } = await h.createKey({ apiId, externalId: 'org_before', ratelimits: [KEY_LIMIT] });
      for (let i = 0; i < 3; i++) expect((await h.verify(key)).body.data.code).toBe('VALID');
      const moved = await h.call('keys.updateKey', { keyId, externalId: 'org_after' });
      expect(moved.status).toBe(200);
      const data = (await h.verify(key)).body.data;
      expect(data.identity).toMatchObject({ externalId: 'org_after' });
      expect(data.ratelimits).toEqual([expect.objectContaining({ name: 'per-key', limit: 5, remaining: remainingAfterMove, exceeded: false })]);
    } finally {
      await h.stop();
    }
  });
});
