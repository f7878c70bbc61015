import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removeRoles → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { roles: ['admin'] }, '/required'],
    ['roles missing', { keyId: 'key_123' }, '/required'],
    ['keyId of 2 characters', { keyId: 'k1', roles: ['admin'] }, '/properties/keyId/minLength'],
    ['no roles', { keyId: 'key_123', roles: [] }, '/properties/roles/minItems'],
    ['101 roles', { keyId: 'key_123', roles: Array.from({ length: 101 }, (_, i) => `r${i}`) }, '/properties/roles/maxItems'],
    ['an empty role name', { keyId: 'key_123', roles: [''] }, '/properties/roles/items/minLength'],
    ['a role name of 129 characters', { keyId: 'key_123', roles: ['r'.repeat(129)] }, '/properties/roles/items/maxLength'],
    ['an unknown field', { keyId: 'key_123', roles: ['admin'], all: true }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.removeRoles', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('a refused request leaves the roles on the key', async () => {
    expect((await h.call('permissions.createRole', { name: 'rr_stays', permissions: ['rr.stays'] })).status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), roles: ['rr_stays'] });
    expectError(await h.call('keys.removeRoles', { keyId, roles: ['rr_stays', ''] }), 400, 'unkey/application/invalid_input');
    expect((await h.verify(key, { permissions: 'rr.stays' })).body.data.code).toBe('VALID');
  });
});
