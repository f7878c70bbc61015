import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/apis.listKeys' failed to validate schema";

describe('apis.listKeys → 400', () => {
  const h = useHarness();
  let apiId: string | undefined;
  const api = async () => (apiId ??= await h.createApi('strict'));

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('limit 0 is rejected at /properties/limit/minimum', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), limit: 0 }), '/properties/limit/minimum');
  });

  test('limit 101 is rejected at /properties/limit/maximum (and 1 and 100 are accepted)', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), limit: 101 }), '/properties/limit/maximum');
    expect((await h.call('apis.listKeys', { apiId: await api(), limit: 1 })).status).toBe(200);
    expect((await h.call('apis.listKeys', { apiId: await api(), limit: 100 })).status).toBe(200);
  });

  test('a fractional limit is rejected at /properties/limit/type', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), limit: 2.5 }), '/properties/limit/type');
  });

  test('a missing apiId is rejected at /required; an empty one at /properties/apiId/minLength', async () => {
    expectInvalid(await h.call('apis.listKeys', {}), '/required');
    expectInvalid(await h.call('apis.listKeys', { apiId: '' }), '/properties/apiId/minLength');
  });

  test('an empty externalId is rejected at /properties/externalId/minLength', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), externalId: '' }), '/properties/externalId/minLength');
  });

  test('decrypt that is not a boolean is rejected', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), decrypt: 'yes' }), '/properties/decrypt/type');
  });

  test('a cursor over 1024 characters is rejected at /properties/cursor/maxLength', async () => {
    expectInvalid(await h.call('apis.listKeys', { apiId: await api(), cursor: 'k'.repeat(1025) }), '/properties/cursor/maxLength');
    expect((await h.call('apis.listKeys', { apiId: await api(), cursor: 'é'.repeat(1024) })).status).toBe(200);
  });

  test('an unknown property is rejected', async () => {
    const res = await h.call('apis.listKeys', { apiId: await api(), offset: 10 });
    expectInvalid(res, '/additionalProperties');
    expect(res.body.error.errors.find((e: any) => e.location === '/additionalProperties').message).toContain('offset');
  });
});
