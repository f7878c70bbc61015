import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { existingNamespace, fresh, MINUTE } from '../support.js';

describe('ratelimit.multiLimit → 403', () => {
  const h = useHarness();
  const item = (namespace: string, identifier = 'u', limit = 10) => ({ namespace, identifier, limit, duration: MINUTE });
  const find = (nameOrId: string) => h.keygate.services.storage.namespaces.find(WORKSPACE_ID, nameOrId);

  describeForbiddenCase(h, 'ratelimit.multiLimit', () => [item(fresh('new'))], 'ratelimit.*.create_namespace', ['ratelimit.*.limit']);

  describeForbiddenCase(h, 'ratelimit.multiLimit', async () => [item((await existingNamespace(h)).name)],
    'ratelimit.*.limit', ['ratelimit.*.create_namespace']);

  test('without create_namespace no namespace of the batch is created, even the ones before', async () => {
    const existing = await existingNamespace(h);
    const a = fresh('new-a');
    const b = fresh('new-b');
    const key = await h.rootKey(['ratelimit.*.limit']);
    const res = await h.call('ratelimit.multiLimit', [item(a), item(existing.name), item(b)], { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('ratelimit.*.create_namespace');
    expect(await find(a)).toBeNull();
    expect(await find(b)).toBeNull();
  });

  test('a grant for one namespace of two is not enough: the detail names the other, nothing is consumed', async () => {
    const mine = await existingNamespace(h);
    const other = await existingNamespace(h);
    const key = await h.rootKey([`ratelimit.${mine.id}.limit`]);
    const res = await h.call('ratelimit.multiLimit', [item(mine.name, 'metered', 1), item(other.name)], { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain(`ratelimit.${other.id}.limit`);
    expect(res.body.error.detail).toContain('ratelimit.*.limit');
    const admitted = await h.call('ratelimit.limit', item(mine.name, 'metered', 1));
    expect(admitted.body.data).toMatchObject({ success: true, remaining: 0 });
  });
});
