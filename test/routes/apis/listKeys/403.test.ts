import { describe, expect, test } from 'vitest';
import { describeForbiddenCase, expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('apis.listKeys → 403', () => {
  const h = useHarness();
  let apiId: string | undefined;
  const body = async () => {
    if (apiId === undefined) {
      apiId = await h.createApi('guarded');
      await h.createKey({ apiId });
    }
    return { apiId };
  };

  describeForbiddenCase(h, 'apis.listKeys', body, 'api.*.read_key', ['api.*.read_api']);
  describeForbiddenCase(h, 'apis.listKeys', body, 'api.*.read_api', ['api.*.read_key']);

  test('read_key without read_api: the detail names exactly the read_api tuples', async () => {
    const { apiId: id } = await body();
    const res = await h.call('apis.listKeys', { apiId: id }, { rootKey: await h.rootKey([`api.${id}.read_key`]) });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.title).toBe('Forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.read_api' or 'api.${id}.read_api'.`);
  });

  test('neither read_key nor read_api: the detail names all four tuples', async () => {
    const { apiId: id } = await body();
    const res = await h.call('apis.listKeys', { apiId: id }, { rootKey: await h.rootKey(['api.*.create_key']) });
    expectError(res, 403, 'forbidden');
    for (const tuple of ['api.*.read_key', `api.${id}.read_key`, 'api.*.read_api', `api.${id}.read_api`]) {
      expect(res.body.error.detail).toContain(`'${tuple}'`);
    }
  });

  test('tuples for another API do not grant this one', async () => {
    const { apiId: id } = await body();
    const other = await h.createApi('other');
    const key = await h.rootKey([`api.${other}.read_key`, `api.${other}.read_api`]);
    expect((await h.call('apis.listKeys', { apiId: other }, { rootKey: key })).status).toBe(200);
    const res = await h.call('apis.listKeys', { apiId: id }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.data).toBeUndefined();
    expect(res.body.pagination).toBeUndefined();
  });

  test('decrypt: true without decrypt_key → 403 naming it, even with both read permissions', async () => {
    const { apiId: id } = await body();
    const key = await h.rootKey(['api.*.read_key', 'api.*.read_api']);
    const res = await h.call('apis.listKeys', { apiId: id, decrypt: true }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toBe(`Missing one of these permissions: 'api.*.decrypt_key' or 'api.${id}.decrypt_key'.`);
    expect((await h.call('apis.listKeys', { apiId: id, decrypt: false }, { rootKey: key })).status).toBe(200);
  });

  test('permission is checked before the lookup: an unknown API gives 403 without the permission', async () => {
    const key = await h.rootKey(['api.*.read_api']);
    const res = await h.call('apis.listKeys', { apiId: 'api_doesnotexist000' }, { rootKey: key });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.api_doesnotexist000.read_key');
  });
});
