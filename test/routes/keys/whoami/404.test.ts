import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = 'The specified key was not found.';

describe('keys.whoami → 404', () => {
  const h = useHarness();

  test('an unknown key → 404 key_not_found', async () => {
    const res = await h.call('keys.whoami', { key: 'sk_thiskeydoesnotexist' });
    expectError(res, 404, 'unkey/data/key_not_found');
    expect(res.body.error.detail).toBe(DETAIL);
  });

  test('a root key without read_key gets the same 404 as for an unknown key (never a 403 that confirms the key exists)', async () => {
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId });
    const other = await h.createApi();
    for (const permissions of [['api.*.verify_key', 'api.*.update_key'], [`api.${other}.read_key`]]) {
      const weak = await h.rootKey(permissions);
      const existing = await h.call('keys.whoami', { key }, { rootKey: weak });
      const missing = await h.call('keys.whoami', { key: 'sk_thiskeydoesnotexist' }, { rootKey: weak });
      expectError(existing, 404, 'unkey/data/key_not_found');
      expect(existing.body.error).toEqual(missing.body.error);
      expect(existing.body.error.detail).toBe(DETAIL);
    }
  });

  test('a key of a deleted API is not found', async () => {
    const apiId = await h.createApi();
    const { key } = await h.createKey({ apiId });
    expect((await h.call('keys.whoami', { key })).status).toBe(200);
    await h.keygate.services.storage.apis.markDeleted(apiId, Date.now());
    expectError(await h.call('keys.whoami', { key }), 404, 'unkey/data/key_not_found');
  });

  test('the key must match exactly: its keyId, its start or a changed character are not found', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), prefix: 'wk' });
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    for (const probe of [keyId, key.slice(0, 7), key.slice(0, -1) + last, `${key} `]) {
      expectError(await h.call('keys.whoami', { key: probe }), 404, 'unkey/data/key_not_found');
    }
  });
});
