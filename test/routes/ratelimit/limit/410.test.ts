import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, MINUTE, softDeleteNamespace } from '../support.js';

describe('ratelimit.limit → 410', () => {
  const h = useHarness();

  test('a soft-deleted namespace answers 410 by name and by id, before any permission check', async () => {
    const ns = await existingNamespace(h);
    await softDeleteNamespace(h, ns.id);
    for (const namespace of [ns.name, ns.id]) {
      const res = await h.call('ratelimit.limit', { namespace, identifier: 'u', limit: 10, duration: MINUTE });
      expectError(res, 410, 'unkey/data/ratelimit_namespace_gone');
      expect(res.body.error.title).toBe('Resource Gone');
      expect(res.body.error.detail).toBe('This namespace has been deleted.');
    }
    const unprivileged = await h.rootKey(['ratelimit.*.read_override']);
    const res = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: unprivileged });
    expectError(res, 410, 'unkey/data/ratelimit_namespace_gone');
  });

  test('the deleted namespace is not re-created under its name', async () => {
    const ns = await existingNamespace(h);
    await softDeleteNamespace(h, ns.name);
    await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'u', limit: 10, duration: MINUTE });
    const again = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'u', limit: 10, duration: MINUTE });
    expect(again.status).toBe(410);
  });
});
