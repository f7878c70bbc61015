import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.createRole' failed to validate schema";

describe('permissions.createRole → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('an empty name is rejected at /properties/name/minLength and nothing is stored', async () => {
    const res = await h.call('permissions.createRole', { name: '' });
    expectInvalid(res, '/properties/name/minLength');
  });

  test('a name of 129 characters is rejected at /properties/name/maxLength', async () => {
    const res = await h.call('permissions.createRole', { name: 'r'.repeat(129) });
    expectInvalid(res, '/properties/name/maxLength');
    expect(await h.keygate.services.storage.roles.findByName(WORKSPACE_ID, 'r'.repeat(129))).toBeNull();
  });

  test('a permission slug with a space is rejected and no role is created', async () => {
    const res = await h.call('permissions.createRole', { name: 'bad-perms', permissions: ['ok.slug', 'not ok'] });
    expectInvalid(res, '/properties/permissions/items/pattern');
    expect(await h.keygate.services.storage.roles.findByName(WORKSPACE_ID, 'bad-perms')).toBeNull();
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'ok.slug')).toBeNull();
  });

  test('a missing name is rejected at /required', async () => {
    const res = await h.call('permissions.createRole', { description: 'x' });
    expectInvalid(res, '/required');
  });

  test('permissions that is not an array is rejected', async () => {
    const res = await h.call('permissions.createRole', { name: 'r1', permissions: 'a.b' });
    expectInvalid(res, '/properties/permissions/type');
  });

  test('unknown properties are rejected', async () => {
    const res = await h.call('permissions.createRole', { name: 'r2', color: 'red' });
    expectInvalid(res, '/additionalProperties');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.createRole', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.createRole', { name: '' }, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
