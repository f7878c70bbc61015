import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.removePermissions → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { permissions: ['a.b'] }, '/required'],
    ['permissions missing', { keyId: 'key_123' }, '/required'],
    ['keyId with a dot', { keyId: 'key.123', permissions: ['a.b'] }, '/properties/keyId/pattern'],
    ['no permissions', { keyId: 'key_123', permissions: [] }, '/properties/permissions/minItems'],
    ['1001 permissions', { keyId: 'key_123', permissions: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, '/properties/permissions/maxItems'],
    ['a slug with a slash', { keyId: 'key_123', permissions: ['docs/read'] }, '/properties/permissions/items/pattern'],
    ['a slug that is a number', { keyId: 'key_123', permissions: [5] }, '/properties/permissions/items/type'],
    ['an unknown field', { keyId: 'key_123', permissions: ['a.b'], force: true }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.removePermissions', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('one bad slug refuses the whole request: the valid one stays attached', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), permissions: ['stay.here'] });
    expectError(await h.call('keys.removePermissions', { keyId, permissions: ['stay.here', 'bad slug'] }), 400, 'unkey/application/invalid_input');
    expect((await h.verify(key, { permissions: 'stay.here' })).body.data.code).toBe('VALID');
  });
});
