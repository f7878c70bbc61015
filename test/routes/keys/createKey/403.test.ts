import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.createKey → 403', () => {
  const h = useHarness();
  describeForbiddenCase(h, 'keys.createKey', async () => ({ apiId: await h.createApi() }), 'api.*.create_key', ['api.*.verify_key']);

  test('the detail names both acceptable tuples, and a key for another API is refused', async () => {
    const mine = await h.createApi();
    const other = await h.createApi();
    const scoped = await h.rootKey([`api.${mine}.create_key`]);
    const res = await h.call('keys.createKey', { apiId: other }, { rootKey: scoped });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.create_key' or 'api.${other}.create_key'.`);
  });

  test('the 403 does not reveal whether the API exists', async () => {
    const scoped = await h.rootKey(['api.*.verify_key']);
    const existing = await h.call('keys.createKey', { apiId: await h.createApi() }, { rootKey: scoped });
    const missing = await h.call('keys.createKey', { apiId: 'api_doesnotexist' }, { rootKey: scoped });
    expect(existing.status).toBe(403);
    expect(missing.status).toBe(403);
  });
});
