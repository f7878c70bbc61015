import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, MINUTE } from '../support.js';

describe('ratelimit.setOverride → 403', () => {
  const h = useHarness();

  describeForbiddenCase(h, 'ratelimit.setOverride',
    async () => ({ namespace: (await existingNamespace(h)).name, identifier: 'u', limit: 1, duration: MINUTE }),
    'ratelimit.*.set_override', ['ratelimit.*.read_override', 'ratelimit.*.delete_override', 'ratelimit.*.limit']);

  test('the detail names the namespace-id tuple; a grant for another namespace does not help; nothing is stored', async () => {
    const ns = await existingNamespace(h);
    const other = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${other.id}.set_override`]);
    const res = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`ratelimit.${ns.id}.set_override`);
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'u' })).status).toBe(404);
  });

  test('permissions name namespaces by id: a grant naming the namespace by its name is not enough', async () => {
    const ns = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${ns.name}.set_override`]);
    const res = await h.call('ratelimit.setOverride', { namespace: ns.name, identifier: 'u', limit: 1, duration: MINUTE }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`ratelimit.${ns.id}.set_override`);
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'u' })).status).toBe(404);
  });
});
