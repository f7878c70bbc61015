import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace } from '../support.js';

describe('ratelimit.listOverrides → 403', () => {
  const h = useHarness();

  // Unkey checks read_override here; list_overrides exists as an action but grants nothing.
  describeForbiddenCase(h, 'ratelimit.listOverrides', async () => ({ namespace: (await existingNamespace(h)).name }),
    'ratelimit.*.read_override', ['ratelimit.*.list_overrides', 'ratelimit.*.set_override']);

  test('the detail names the namespace-id tuple; a grant for another namespace does not help', async () => {
    const ns = await existingNamespace(h);
    const other = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${other.id}.read_override`]);
    const res = await h.call('ratelimit.listOverrides', { namespace: ns.name }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`ratelimit.${ns.id}.read_override`);
  });
});
