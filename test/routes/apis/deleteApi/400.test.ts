import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/apis.deleteApi' failed to validate schema";

describe('apis.deleteApi → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('an apiId of 7 characters is rejected at /properties/apiId/minLength', async () => {
    expectInvalid(await h.call('apis.deleteApi', { apiId: 'api_123' }), '/properties/apiId/minLength');
  });

  test("an apiId containing '-' is rejected at /properties/apiId/pattern", async () => {
    expectInvalid(await h.call('apis.deleteApi', { apiId: 'api_abc-defgh' }), '/properties/apiId/pattern');
  });

  test('an apiId longer than 255 characters is rejected at /properties/apiId/maxLength', async () => {
    expectInvalid(await h.call('apis.deleteApi', { apiId: `api_${'a'.repeat(252)}` }), '/properties/apiId/maxLength');
  });

  test('a missing apiId is rejected with a fix naming it', async () => {
    const res = await h.call('apis.deleteApi', {});
    expectInvalid(res, '/required');
    expect(res.body.error.errors.find((e: any) => e.location === '/required').fix).toContain('apiId');
  });

  test('an unknown property is rejected and the API is not deleted', async () => {
    const apiId = await h.createApi('strict');
    const res = await h.call('apis.deleteApi', { apiId, force: true });
    expectInvalid(res, '/additionalProperties');
    expect((await h.call('apis.getApi', { apiId })).status).toBe(200);
  });

  test('validation comes before authentication: a bad body with no root key is a 400', async () => {
    const res = await h.call('apis.deleteApi', { apiId: 12345678 }, { rootKey: null });
    expectInvalid(res, '/properties/apiId/type');
  });
});
