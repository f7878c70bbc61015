import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateCredits → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.updateCredits', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi(), credits: { remaining: 1 } })).keyId, operation: 'set', value: 5 }), 'api.*.update_key', ['api.*.read_key', 'api.*.verify_key']);

  test('a root key scoped to another API is refused, names both tuples, and the balance is unchanged', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const { keyId } = await h.createKey({ apiId: other, credits: { remaining: 1 } });
    const scoped = await h.rootKey([`api.${mine}.update_key`]);
    const res = await h.call('keys.updateCredits', { keyId, operation: 'increment', value: 1000 }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.update_key' or 'api.${other}.update_key'.`);
    expect((await h.call('keys.getKey', { keyId })).body.data.credits).toEqual({ remaining: 1 });
  });

  test('the permission is checked before the operation rules (Unkey\'s order)', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const weak = await h.rootKey(['api.*.read_key']);
    // Unlimited key and no value: both would be a 400 for a permitted caller.
    expectError(await h.call('keys.updateCredits', { keyId, operation: 'increment' }, { rootKey: weak }), 403, 'forbidden');
    expectError(await h.call('keys.updateCredits', { keyId, operation: 'increment' }), 400, 'unkey/application/invalid_input');
  });
});
