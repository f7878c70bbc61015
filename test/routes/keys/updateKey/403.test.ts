import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.updateKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, enabled: false }), 'api.*.update_key', ['api.*.read_key', 'api.*.create_key']);

  test('a root key scoped to another API is refused, names both tuples, and changes nothing', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId: other });
    const scoped = await h.rootKey([`api.${mine}.update_key`]);
    const res = await h.call('keys.updateKey', { keyId, enabled: false }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.update_key' or 'api.${other}.update_key'.`);
    expect((await h.verify(key)).body.data.code).toBe('VALID');
  });

  test('the permission is checked before the input rules', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const weak = await h.rootKey(['api.*.read_key']);
    const res = await h.call('keys.updateKey', { keyId, roles: ['admin'], credits: { remaining: 1, refill: { interval: 'monthly', amount: 1 } } }, { rootKey: weak });
    expectError(res, 403, 'forbidden');
  });
});
