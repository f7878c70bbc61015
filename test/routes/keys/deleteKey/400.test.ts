import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.deleteKey → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', {}, '/required'],
    ['keyId shorter than 3', { keyId: 'ab' }, '/properties/keyId/minLength'],
    ['keyId with a dot', { keyId: 'key.1' }, '/properties/keyId/pattern'],
    ['permanent as a string', { keyId: 'key_123', permanent: 'true' }, '/properties/permanent/type'],
    ['an unknown field', { keyId: 'key_123', soft: true }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.deleteKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('a refused request deletes nothing', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    expectError(await h.call('keys.deleteKey', { keyId, permanent: 'yes' }), 400, 'unkey/application/invalid_input');
    expect((await h.verify(key)).body.data.code).toBe('VALID');
  });
});
