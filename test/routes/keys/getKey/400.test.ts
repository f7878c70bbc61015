import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.getKey → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', {}, '/required'],
    ['keyId shorter than 3', { keyId: 'ab' }, '/properties/keyId/minLength'],
    ['keyId with a dash', { keyId: 'key-123' }, '/properties/keyId/pattern'],
    ['keyId longer than 255', { keyId: 'k'.repeat(256) }, '/properties/keyId/maxLength'],
    ['decrypt as a string', { keyId: 'key_123', decrypt: 'yes' }, '/properties/decrypt/type'],
    ['lookup by the key string (only keyId is accepted)', { key: 'sk_123' }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.getKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('the body is validated before the root key: bad body and bad key → 400', async () => {
    const res = await h.call('keys.getKey', {}, { rootKey: 'kgroot_doesnotexist0000000000000' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });
});
