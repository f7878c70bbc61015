import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.getKey → 412', () => {
  const h = useHarness();

  test('decrypt: true is refused, since no key is stored in a recoverable form; without it the key is answered', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.getKey', { keyId, decrypt: true });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.detail).toMatch(/does not support key encryption/);
    expect((await h.call('keys.getKey', { keyId, decrypt: false })).status).toBe(200);
  });

  test('the permission check comes first: a root key without decrypt_key gets the 403', async () => {
    const apiId = await h.createApi();
    const { keyId } = await h.createKey({ apiId });
    const reader = await h.rootKey(['api.*.read_key']);
    const res = await h.call('keys.getKey', { keyId, decrypt: true }, { rootKey: reader });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.*.decrypt_key');
    for (const granted of [['api.*.read_key', 'api.*.decrypt_key'], [`api.${apiId}.read_key`, `api.${apiId}.decrypt_key`]]) {
      expect((await h.call('keys.getKey', { keyId, decrypt: true }, { rootKey: await h.rootKey(granted) })).status).toBe(412);
    }
  });
});
