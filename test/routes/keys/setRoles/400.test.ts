import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.setRoles → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { roles: [] }, '/required'],
    ['roles missing (no implicit clear)', { keyId: 'key_123' }, '/required'],
    ['roles null', { keyId: 'key_123', roles: null }, '/properties/roles/type'],
    ['keyId with a slash', { keyId: 'key/123', roles: [] }, '/properties/keyId/pattern'],
    ['101 roles', { keyId: 'key_123', roles: Array.from({ length: 101 }, (_, i) => `r${i}`) }, '/properties/roles/maxItems'],
    ['an empty role name', { keyId: 'key_123', roles: [''] }, '/properties/roles/items/minLength'],
    ['an unknown field', { keyId: 'key_123', roles: [], permissions: [] }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.setRoles', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('a refused request leaves the roles as they were', async () => {
    expect((await h.call('permissions.createRole', { name: 'sr_stays', permissions: ['sr.stays'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['sr_stays'] });
    expectError(await h.call('keys.setRoles', { keyId, roles: ['r'.repeat(129)] }), 400, 'unkey/application/invalid_input');
    expect((await h.verify(key, { permissions: 'sr.stays' })).body.data.code).toBe('VALID');
  });
});
