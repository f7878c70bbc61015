import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, setOverride } from '../support.js';

describe('ratelimit.deleteOverride → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'ratelimit.deleteOverride', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 1);
    return { namespace: ns.name, identifier: 'u' };
  }, 'ratelimit.*.delete_override', ['ratelimit.*.set_override', 'ratelimit.*.read_override']);

  test('403 comes before the override lookup, names the namespace-id tuple, and deletes nothing', async () => {
    const ns = await existingNamespace(h);
    const overrideId = await setOverride(h, ns.name, 'u', 1);
    const key = await h.rootKey(['ratelimit.*.limit']);
    const missing = await h.call('ratelimit.deleteOverride', { namespace: ns.name, identifier: 'no-such-override' }, { rootKey: key });
    expectError(missing, 403, 'forbidden');
    const res = await h.call('ratelimit.deleteOverride', { namespace: ns.name, identifier: 'u' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`ratelimit.${ns.id}.delete_override`);
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'u' })).body.data.overrideId).toBe(overrideId);
  });
});
