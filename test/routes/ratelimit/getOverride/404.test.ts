import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, setOverride, softDeleteNamespace } from '../support.js';

describe('ratelimit.getOverride → 404', () => {
  const h = useHarness();
  const get = (namespace: string, identifier: string, rootKey?: string) =>
    h.call('ratelimit.getOverride', { namespace, identifier }, rootKey === undefined ? {} : { rootKey });
  const expectOverrideNotFound = (res: { status: number; body: any }): void => {
    expectError(res, 404, 'unkey/data/ratelimit_override_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('This override does not exist.');
  };
  const expectNamespaceNotFound = (res: { status: number; body: any }): void => {
    expectError(res, 404, 'unkey/data/ratelimit_namespace_not_found');
    expect(res.body.error.detail).toBe('This namespace does not exist.');
  };

  test('an identifier with no matching override', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'user_*', 5);
    expectOverrideNotFound(await get(ns.name, 'admin_1'));
    expectOverrideNotFound(await get(ns.name, 'xuser_1'));
  });

  test('a deleted override', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 5);
    expect((await h.call('ratelimit.deleteOverride', { namespace: ns.name, identifier: 'u' })).status).toBe(200);
    expectOverrideNotFound(await get(ns.name, 'u'));
  });

  test('a missing read permission is masked as "override not found", for existing and missing overrides alike', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 5);
    const other = await existingNamespace(h);
    for (const key of [await h.rootKey(['ratelimit.*.set_override', 'ratelimit.*.limit']), await h.rootKey([`ratelimit.${other.id}.read_override`])]) {
      expectOverrideNotFound(await get(ns.name, 'u', key));
      expectOverrideNotFound(await get(ns.name, 'missing', key));
    }
  });

  test('an unknown namespace, before any permission check', async () => {
    expectNamespaceNotFound(await get(fresh('unknown'), 'u'));
    expectNamespaceNotFound(await get(fresh('unknown'), 'u', await h.rootKey(['ratelimit.*.limit'])));
  });

  test('a soft-deleted namespace, even with overrides', async () => {
    const ns = await existingNamespace(h);
    await setOverride(h, ns.name, 'u', 5);
    await softDeleteNamespace(h, ns.id);
    expectNamespaceNotFound(await get(ns.name, 'u'));
    expectNamespaceNotFound(await get(ns.id, 'u'));
  });
});
