import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.whoami → 400', () => {
  const h = useHarness();

  test.each([
    ['key missing', {}, '/required'],
    ['key empty', { key: '' }, '/properties/key/minLength'],
    ['key longer than 512', { key: 'k'.repeat(513) }, '/properties/key/maxLength'],
    ['key as a number', { key: 42 }, '/properties/key/type'],
    ['an unknown field', { key: 'sk_123', keyId: 'key_123' }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.whoami', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });
});
