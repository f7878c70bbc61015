import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setPermissions → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { permissions: [] }, '/required'],
    ['permissions missing (no implicit clear)', { keyId: 'key_123' }, '/required'],
    ['permissions null', { keyId: 'key_123', permissions: null }, '/properties/permissions/type'],
    ['keyId with a space', { keyId: 'key 123', permissions: [] }, '/properties/keyId/pattern'],
    ['1001 permissions', { keyId: 'key_123', permissions: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, '/properties/permissions/maxItems'],
    ['a slug with a comma', { keyId: 'key_123', permissions: ['a,b'] }, '/properties/permissions/items/pattern'],
    ['an unknown field', { keyId: 'key_123', permissions: [], roles: [] }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.setPermissions', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('one bad slug refuses the whole request: nothing is created and the key keeps its set', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['old.one'] });
    expectError(await h.call('keys.setPermissions', { keyId, permissions: ['new.one', 'bad slug'] }), 400, 'unkey/application/invalid_input');
    expect(await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'new.one')).toBeNull();
    expect((await h.verify(key, { permissions: 'old.one' })).body.data.code).toBe('VALID');
  });
});
