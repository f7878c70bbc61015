import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.getKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.getKey', async () => ({ keyId: (await h.createKey({ apiId: await h.createApi() })).keyId }), 'api.*.read_key', ['api.*.verify_key', 'api.*.update_key']);

  test('a root key scoped to another API is refused, and the detail names both acceptable tuples', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const { keyId } = await h.createKey({ apiId: other });
    const scoped = await h.rootKey([`api.${mine}.read_key`]);
    const res = await h.call('keys.getKey', { keyId }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.read_key' or 'api.${other}.read_key'.`);
  });

  test('decrypt needs the decrypt permission on top of read', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    const reader = await h.rootKey(['api.*.read_key']);
    expect((await h.call('keys.getKey', { keyId }, { rootKey: reader })).status).toBe(200);
    const res = await h.call('keys.getKey', { keyId, decrypt: true }, { rootKey: reader });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.decrypt_key' or 'api.${apiId}.decrypt_key'.`);
  });
});
