import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const MINUTE = 60_000;

describe('ratelimit.limit → 403', () => {
  const h = useHarness();
  let seq = 0;
  const freshNamespace = (): string => `ns-${Date.now()}-${seq++}`;
  const find = (nameOrId: string) => h.keygate.services.storage.namespaces.find(WORKSPACE_ID, nameOrId);
  /** A namespace that already exists (created with the admin key). */
  const existing = async (): Promise<{ name: string; id: string }> => {
    const name = freshNamespace();
    const res = await h.call('ratelimit.limit', { namespace: name, identifier: 'warmup', limit: 1000, duration: MINUTE });
    expect(res.status).toBe(200);
    return { name, id: (await find(name))!.id };
  };

  describeForbiddenCase(h, 'ratelimit.limit',
    () => ({ namespace: freshNamespace(), identifier: 'u', limit: 10, duration: MINUTE }),
    'ratelimit.*.create_namespace', ['ratelimit.*.limit']);

  describeForbiddenCase(h, 'ratelimit.limit',
    async () => ({ namespace: (await existing()).name, identifier: 'u', limit: 10, duration: MINUTE }),
    'ratelimit.*.limit', ['ratelimit.*.create_namespace']);

  test('a new namespace without create_namespace is not created', async () => {
    const namespace = freshNamespace();
    const key = await h.rootKey(['ratelimit.*.limit']);
    const res = await h.call('ratelimit.limit', { namespace, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toContain('ratelimit.*.create_namespace');
    expect(await find(namespace)).toBeNull();
  });

  test('on an existing namespace the detail names both the wildcard and the namespace-id tuple', async () => {
    const ns = await existing();
    const key = await h.rootKey(['ratelimit.*.create_namespace', 'ratelimit.*.read_namespace']);
    const res = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('ratelimit.*.limit');
    expect(res.body.error.detail).toContain(`ratelimit.${ns.id}.limit`);
  });

  test('a key scoped to one namespace id is forbidden on another namespace', async () => {
    const mine = await existing();
    const other = await existing();
    const key = await h.rootKey([`ratelimit.${mine.id}.limit`]);
    const ok = await h.call('ratelimit.limit', { namespace: mine.name, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expect(ok.status).toBe(200);
    expect(ok.body.data.success).toBe(true);
    const denied = await h.call('ratelimit.limit', { namespace: other.name, identifier: 'u', limit: 10, duration: MINUTE }, { rootKey: key });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.error.detail).toContain(`ratelimit.${other.id}.limit`);
  });

  test('permissions name namespaces by id: a grant naming the namespace by its name is not enough', async () => {
    const ns = await existing();
    const byName = await h.rootKey([`ratelimit.${ns.name}.limit`]);
    const denied = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'by-name', limit: 1, duration: MINUTE }, { rootKey: byName });
    expectError(denied, 403, 'forbidden');
    expect(denied.body.error.detail).toContain(`ratelimit.${ns.id}.limit`);
    const byId = await h.rootKey([`ratelimit.${ns.id}.limit`]);
    const admitted = await h.call('ratelimit.limit', { namespace: ns.name, identifier: 'by-name', limit: 1, duration: MINUTE }, { rootKey: byId });
    expect(admitted.body.data).toMatchObject({ success: true, remaining: 0 });
  });

  test('a forbidden call consumes nothing from the counter', async () => {
    const ns = await existing();
    const key = await h.rootKey(['ratelimit.*.create_namespace']);
    const body = { namespace: ns.name, identifier: 'metered', limit: 1, duration: MINUTE };
    expect((await h.call('ratelimit.limit', body, { rootKey: key })).status).toBe(403);
    const admitted = await h.call('ratelimit.limit', body);
    expect(admitted.body.data).toMatchObject({ success: true, remaining: 0 });
  });
});
