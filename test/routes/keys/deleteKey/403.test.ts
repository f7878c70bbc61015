import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.deleteKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.deleteKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId }), 'api.*.delete_key', ['api.*.read_key', 'api.*.update_key']);

  test('a root key scoped to another API is refused, names both tuples, and the key keeps working', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId: other });
    const scoped = await h.rootKey([`api.${mine}.delete_key`]);
    const res = await h.call('keys.deleteKey', { keyId, permanent: true }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.delete_key' or 'api.${other}.delete_key'.`);
    expect((await h.verify(key)).body.data.code).toBe('VALID');
  });
});
