import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.rerollKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.rerollKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId, expiration: 0 }), 'api.*.create_key', ['api.*.read_key', 'api.*.update_key']);

  test('a root key scoped to another API is refused, names both tuples, and the old key is not expired', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const old = await h.createKey({ apiId: other });
    const scoped = await h.rootKey([`api.${mine}.create_key`]);
    const res = await h.call('keys.rerollKey', { keyId: old.keyId, expiration: 0 }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.create_key' or 'api.${other}.create_key'.`);
    const data = (await h.verify(old.key)).body.data;
    expect(data.code).toBe('VALID');
    expect(data).not.toHaveProperty('expires');
  });
});
