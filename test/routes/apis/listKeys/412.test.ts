import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listKeys → 412', () => {
  const h = useHarness();

  test('decrypt: true is refused, since no key is stored in a recoverable form; without it the keys are listed', async () => {
    const apiId = await h.createApi();
    await h.createKey({ apiId });
    const res = await h.call('apis.listKeys', { apiId, decrypt: true });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.detail).toMatch(/does not support key encryption/);
    expect((await h.call('apis.listKeys', { apiId })).body.data).toHaveLength(1);
  });

  test('after the permission check (403) and the API lookup (404)', async () => {
    const apiId = await h.createApi();
    const reader = await h.rootKey(['api.*.read_key', 'api.*.read_api']);
    const forbidden = await h.call('apis.listKeys', { apiId, decrypt: true }, { rootKey: reader });
    expectError(forbidden, 403, 'forbidden');
    expect(forbidden.body.error.detail).toContain('api.*.decrypt_key');
    expectError(await h.call('apis.listKeys', { apiId: 'api_unknown', decrypt: true }), 404, 'unkey/data/api_not_found');
    const scoped = await h.rootKey([`api.${apiId}.read_key`, `api.${apiId}.read_api`, `api.${apiId}.decrypt_key`]);
    expectError(await h.call('apis.listKeys', { apiId, decrypt: true }, { rootKey: scoped }), 412, 'unkey/application/precondition_failed');
  });
});
