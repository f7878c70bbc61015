import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.deleteRole' failed to validate schema";

describe('permissions.deleteRole → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a missing role is rejected at /required', async () => {
    const res = await h.call('permissions.deleteRole', {});
    expectInvalid(res, '/required');
  });

  test('an empty role is rejected at /properties/role/minLength', async () => {
    const res = await h.call('permissions.deleteRole', { role: '' });
    expectInvalid(res, '/properties/role/minLength');
  });

  test('unknown properties are rejected', async () => {
    const res = await h.call('permissions.deleteRole', { role: 'x', force: true });
    expectInvalid(res, '/additionalProperties');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.deleteRole', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.deleteRole', {}, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
