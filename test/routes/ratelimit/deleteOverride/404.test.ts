import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, setOverride, softDeleteNamespace } from '../support.js';

describe('ratelimit.deleteOverride → 404', () => {
  const h = useHarness();
  const del = (namespace: string, identifier: string, rootKey?: string) =>
    h.call('ratelimit.deleteOverride', { namespace, identifier }, rootKey === undefined ? {} : { rootKey });
  const expectOverrideNotFound = (res: { status: number; body: any }): void => {
    expectError(res, 404, 'unkey/data/ratelimit_override_not_found');
    expect(res.body.error.detail).toBe('This override does not exist.');
  };
  const expectNamespaceNotFound = (res: { status: number; body: any }): void => {
    expectError(res, 404, 'unkey/data/ratelimit_namespace_not_found');
    expect(res.body.error.detail).toBe('This namespace does not exist.');
  };

  test('no wildcard matching: an identifier that a pattern matches is not that override', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'user_*', 5);
    expectOverrideNotFound(await del(ns.name, 'user_1'));
    expect((await h.call('ratelimit.getOverride', { namespace: ns.name, identifier: 'user_1' })).status).toBe(200);
  });

  test('deleting twice: the second is a 404', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 5);
    expect((await del(ns.name, 'u')).status).toBe(200);
    expectOverrideNotFound(await del(ns.name, 'u'));
  });

  test('an unknown or soft-deleted namespace is a 404 before any permission check', async () => {
    const unprivileged = await h.rootKey(['ratelimit.*.limit']);
    expectNamespaceNotFound(await del(fresh('unknown'), 'u'));
    expectNamespaceNotFound(await del(fresh('unknown'), 'u', unprivileged));
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 5);
    await softDeleteNamespace(h, ns.name);
    expectNamespaceNotFound(await del(ns.name, 'u'));
    expectNamespaceNotFound(await del(ns.id, 'u', unprivileged));
  });
});
