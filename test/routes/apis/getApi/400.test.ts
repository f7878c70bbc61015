import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/apis.getApi' failed to validate schema";

describe('apis.getApi → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
    for (const issue of res.body.error.errors) expect(typeof issue.message).toBe('string');
  };

  test('an apiId of 7 characters is rejected at /properties/apiId/minLength', async () => {
    const res = await h.call('apis.getApi', { apiId: 'api_123' });
    expectInvalid(res, '/properties/apiId/minLength');
    expect(res.body.error.errors[0].message).toContain('apiId');
  });

  test('an apiId of exactly 8 characters passes validation (404, not 400)', async () => {
    const res = await h.call('apis.getApi', { apiId: 'api_1234' });
    expect(res.status).toBe(404);
  });

  test("an apiId containing '-' is rejected at /properties/apiId/pattern", async () => {
    const res = await h.call('apis.getApi', { apiId: 'api_abc-defgh' });
    expectInvalid(res, '/properties/apiId/pattern');
  });

  test('an apiId longer than 255 characters is rejected at /properties/apiId/maxLength', async () => {
    const res = await h.call('apis.getApi', { apiId: `api_${'a'.repeat(252)}` });
    expectInvalid(res, '/properties/apiId/maxLength');
  });

  test('a missing apiId is rejected with a fix naming it', async () => {
    const res = await h.call('apis.getApi', {});
    expectInvalid(res, '/required');
    const issue = res.body.error.errors.find((e: any) => e.location === '/required');
    expect(issue.message).toContain('apiId');
    expect(issue.fix).toContain('apiId');
  });

  test('an apiId that is not a string is rejected', async () => {
    const res = await h.call('apis.getApi', { apiId: 12345678 });
    expectInvalid(res, '/properties/apiId/type');
  });

  test('an unknown property is rejected', async () => {
    const apiId = await h.createApi('strict');
    const res = await h.call('apis.getApi', { apiId, includeKeys: true });
    expectInvalid(res, '/additionalProperties');
    expect(res.body.error.errors.find((e: any) => e.location === '/additionalProperties').message).toContain('includeKeys');
  });
});
