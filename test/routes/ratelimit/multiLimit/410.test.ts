import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, MINUTE, softDeleteNamespace } from '../support.js';

describe('ratelimit.multiLimit → 410', () => {
  const h = useHarness();
  const item = (namespace: string, identifier = 'u', limit = 10) => ({ namespace, identifier, limit, duration: MINUTE });

  test('a soft-deleted namespace anywhere in the batch fails the whole request; nothing is consumed', async () => {
    const live = await existingNamespace(h);
    const gone = await existingNamespace(h);
    await softDeleteNamespace(h, gone.name);
    for (const batch of [[item(live.name, 'metered', 1), item(gone.name)], [item(gone.id), item(live.name, 'metered', 1)]]) {
      const res = await h.call('ratelimit.multiLimit', batch);
      expectError(res, 410, 'unkey/data/ratelimit_namespace_gone');
      expect(res.body.error.title).toBe('Resource Gone');
    }
    const admitted = await h.call('ratelimit.limit', item(live.name, 'metered', 1));
    expect(admitted.body.data).toMatchObject({ success: true, remaining: 0 });
  });

  test('410 comes after authorization: a key without limit permission gets 403', async () => {
    const gone = await existingNamespace(h);
    await softDeleteNamespace(h, gone.name);
    const key = await h.rootKey(['ratelimit.*.create_namespace']);
    const res = await h.call('ratelimit.multiLimit', [item(fresh('fresh')), item(gone.name)], { rootKey: key });
    expectError(res, 403, 'forbidden');
  });
});
