import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/identities.listIdentities' failed to validate schema";

describe('identities.listIdentities → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('limit 0 and 101 are rejected; 1 and 100 are accepted', async () => {
    expectInvalid(await h.call('identities.listIdentities', { limit: 0 }), '/properties/limit/minimum');
    expectInvalid(await h.call('identities.listIdentities', { limit: 101 }), '/properties/limit/maximum');
    expect((await h.call('identities.listIdentities', { limit: 1 })).status).toBe(200);
    expect((await h.call('identities.listIdentities', { limit: 100 })).status).toBe(200);
  });

  test('a limit that is a string is rejected', async () => {
    expectInvalid(await h.call('identities.listIdentities', { limit: '10' }), '/properties/limit/type');
  });

  test('a search over 256 characters is rejected; 256 is accepted', async () => {
    expectInvalid(await h.call('identities.listIdentities', { search: 's'.repeat(257) }), '/properties/search/maxLength');
    expect((await h.call('identities.listIdentities', { search: 's'.repeat(256) })).status).toBe(200);
  });

  test('a cursor over 1024 characters is rejected; 1024 multi-byte characters are accepted', async () => {
    expectInvalid(await h.call('identities.listIdentities', { cursor: 'c'.repeat(1025) }), '/properties/cursor/maxLength');
    expect((await h.call('identities.listIdentities', { cursor: '€'.repeat(1024) })).status).toBe(200);
  });

  test('an unknown property is rejected', async () => {
    expectInvalid(await h.call('identities.listIdentities', { page: 2 }), '/additionalProperties');
  });
});
