import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addRoles → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { roles: ['admin'] }, '/required'],
    ['roles missing', { keyId: 'key_123' }, '/required'],
    ['keyId with a dash', { keyId: 'key-123', roles: ['admin'] }, '/properties/keyId/pattern'],
    ['no roles', { keyId: 'key_123', roles: [] }, '/properties/roles/minItems'],
    ['101 roles', { keyId: 'key_123', roles: Array.from({ length: 101 }, (_, i) => `r${i}`) }, '/properties/roles/maxItems'],
    ['an empty role name', { keyId: 'key_123', roles: [''] }, '/properties/roles/items/minLength'],
    ['a role name of 129 characters', { keyId: 'key_123', roles: ['r'.repeat(129)] }, '/properties/roles/items/maxLength'],
    ['a role given as an object', { keyId: 'key_123', roles: [{ name: 'admin' }] }, '/properties/roles/items/type'],
    ['an unknown field', { keyId: 'key_123', roles: ['admin'], permissions: [] }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.addRoles', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe("POST request body for '/v2/keys.addRoles' failed to validate schema");
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });
});
