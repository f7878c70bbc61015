import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, MINUTE, softDeleteNamespace } from '../support.js';

describe('ratelimit.setOverride → 404', () => {
  const h = useHarness();
  const expectNamespaceNotFound = (res: { status: number; body: any }): void => {
    expectError(res, 404, 'unkey/data/ratelimit_namespace_not_found');
    expect(res.body.error.title).toBe('Not Found');
    expect(res.body.error.detail).toBe('This namespace does not exist.');
  };

  test('an unknown namespace is a 404 and is not created', async () => {
    const namespace = fresh('unknown');
    expectNamespaceNotFound(await h.call('ratelimit.setOverride', { namespace, identifier: 'u', limit: 1, duration: MINUTE }));
    expect(await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, namespace)).toBeNull();
  });

  test('a soft-deleted namespace is a 404, by name and by id', async () => {
    const ns = await existingNamespace(h);
    await softDeleteNamespace(h, ns.name);
    for (const namespace of [ns.name, ns.id]) {
      expectNamespaceNotFound(await h.call('ratelimit.setOverride', { namespace, identifier: 'u', limit: 1, duration: MINUTE }));
    }
  });

  test('the namespace 404 comes before the permission check', async () => {
    const key = await h.rootKey(['ratelimit.*.read_override']);
    expectNamespaceNotFound(await h.call('ratelimit.setOverride', { namespace: fresh('unknown'), identifier: 'u', limit: 1, duration: MINUTE }, { rootKey: key }));
  });
});
