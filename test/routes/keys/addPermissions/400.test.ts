import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addPermissions → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { permissions: ['a.b'] }, '/required'],
    ['permissions missing', { keyId: 'key_123' }, '/required'],
    ['keyId with a dash', { keyId: 'key-123', permissions: ['a.b'] }, '/properties/keyId/pattern'],
    ['keyId of 2 characters', { keyId: 'k1', permissions: ['a.b'] }, '/properties/keyId/minLength'],
    ['keyId of 256 characters', { keyId: 'k'.repeat(256), permissions: ['a.b'] }, '/properties/keyId/maxLength'],
    ['no permissions', { keyId: 'key_123', permissions: [] }, '/properties/permissions/minItems'],
    ['1001 permissions', { keyId: 'key_123', permissions: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, '/properties/permissions/maxItems'],
    ['a slug with a space', { keyId: 'key_123', permissions: ['docs read'] }, '/properties/permissions/items/pattern'],
    ['an empty slug', { keyId: 'key_123', permissions: [''] }, '/properties/permissions/items/minLength'],
    ['a slug of 129 characters', { keyId: 'key_123', permissions: ['s'.repeat(129)] }, '/properties/permissions/items/maxLength'],
    ['permissions as a string', { keyId: 'key_123', permissions: 'a.b' }, '/properties/permissions/type'],
    ['an unknown field', { keyId: 'key_123', permissions: ['a.b'], roles: ['x'] }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.addPermissions', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe("POST request body for '/v2/keys.addPermissions' failed to validate schema");
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('one bad slug refuses the whole request: the good one is neither created nor attached', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.addPermissions', { keyId, permissions: ['good.slug', 'bad slug'] });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'good.slug')).toBeNull();
    expect((await h.call('keys.getKey', { keyId })).body.data).not.toHaveProperty('permissions');
    expect((await h.verify(key, { permissions: 'good.slug' })).body.data.code).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('the body is validated before the root key: a bad body without a key is a 400', async () => {
    const res = await h.call('keys.addPermissions', { keyId: 'key_123', permissions: [] }, { rootKey: null });
    expectError(res, 400, 'unkey/application/invalid_input');
  });
});
