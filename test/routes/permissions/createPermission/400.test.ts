import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/permissions.createPermission' failed to validate schema";

describe('permissions.createPermission → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  };

  test('a slug with a space is rejected at /properties/slug/pattern and nothing is stored', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'documents read' });
    expectInvalid(res, '/properties/slug/pattern');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'documents read')).toBeNull();
  });

  test('an empty name is rejected at /properties/name/minLength', async () => {
    const res = await h.call('permissions.createPermission', { name: '', slug: 'a.b' });
    expectInvalid(res, '/properties/name/minLength');
  });

  test('a name of 513 characters is rejected at /properties/name/maxLength', async () => {
    const res = await h.call('permissions.createPermission', { name: 'n'.repeat(513), slug: 'a.b' });
    expectInvalid(res, '/properties/name/maxLength');
  });

  test('a slug of 129 characters is rejected at /properties/slug/maxLength', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 's'.repeat(129) });
    expectInvalid(res, '/properties/slug/maxLength');
  });

  test('a missing slug is rejected at /required', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x' });
    expectInvalid(res, '/required');
  });

  test('a description of 513 characters is rejected', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'a.c', description: 'd'.repeat(513) });
    expectInvalid(res, '/properties/description/maxLength');
  });

  test('unknown properties are rejected', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'a.d', extra: 1 });
    expectInvalid(res, '/additionalProperties');
  });

  test('malformed JSON is a 400', async () => {
    const res = await h.call('permissions.createPermission', undefined, { raw: '{"oops"' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('validation runs before authentication: a bad body with an unknown root key is a 400', async () => {
    const res = await h.call('permissions.createPermission', { name: 'x', slug: 'documents read' }, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expect(res.status).toBe(400);
  });
});
