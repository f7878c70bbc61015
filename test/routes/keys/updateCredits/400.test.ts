import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateCredits → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { operation: 'set', value: 1 }, '/required'],
    ['keyId shorter than 3', { keyId: 'ab', operation: 'set', value: 1 }, '/properties/keyId/minLength'],
    ['operation missing', { keyId: 'key_123', value: 1 }, '/required'],
    ['an unknown operation', { keyId: 'key_123', operation: 'multiply', value: 2 }, '/properties/operation/enum'],
    ['a negative value', { keyId: 'key_123', operation: 'set', value: -1 }, '/properties/value/minimum'],
    ['a fractional value', { keyId: 'key_123', operation: 'set', value: 1.5 }, '/properties/value/type'],
    ['a value as a string', { keyId: 'key_123', operation: 'set', value: '5' }, '/properties/value/type'],
    ['an unknown field', { keyId: 'key_123', operation: 'set', value: 1, refill: null }, '/additionalProperties'],
  ])('%s', async (_name, body, location) => {
    const res = await h.call('keys.updateCredits', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test.each([
    ['increment without a value', { operation: 'increment' }],
    ['decrement with a null value', { operation: 'decrement', value: null }],
  ])('%s → 400, and the balance is unchanged', async (_name, fields) => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5 } });
    const res = await h.call('keys.updateCredits', { keyId, ...fields });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe('When specifying an increment or decrement operation, a value must be provided.');
    expect((await h.call('keys.getKey', { keyId })).body.data.credits).toEqual({ remaining: 5 });
  });

  test.each(['increment', 'decrement'])('%s on an unlimited key → 400, and the key stays unlimited', async (operation) => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.updateCredits', { keyId, operation, value: 1 });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe('You cannot increment or decrement a key with unlimited credits.');
    expect((await h.verify(key)).body.data).not.toHaveProperty('credits');
  });
});
