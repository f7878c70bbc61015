import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.createKey → 400', () => {
  const h = useHarness();

  test.each([
    ['apiId missing', {}, '/required'],
    ['prefix with a dash', { prefix: 'sk-live' }, '/properties/prefix/pattern'],
    ['prefix longer than 16', { prefix: 'a'.repeat(17) }, '/properties/prefix/maxLength'],
    ['byteLength under 16', { byteLength: 8 }, '/properties/byteLength/minimum'],
    ['externalId with a space', { externalId: 'a b' }, '/properties/externalId/pattern'],
    ['expires past the year 2100', { expires: 4102444800001 }, '/properties/expires/maximum'],
    ['credits without remaining', { credits: {} }, '/properties/credits/required'],
    ['ratelimit duration under 1 s', { ratelimits: [{ name: 'req', limit: 1, duration: 999, autoApply: true }] }, '/properties/ratelimits/items/properties/duration/minimum'],
    ['meta that is not an object', { meta: 'x' }, '/properties/meta/type'],
    ['enabled as a string', { enabled: 'yes' }, '/properties/enabled/type'],
    ['an unknown field', { colour: 'red' }, '/additionalProperties'],
  ])('%s', async (_name, fields, location) => {
    const apiId = await h.createApi();
    const body = 'apiId' in fields || _name === 'apiId missing' ? fields : { apiId, ...fields };
    const res = await h.call('keys.createKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test('refill without remaining → 400 with the rule in the detail', async () => {
    const res = await h.call('keys.createKey', { apiId: await h.createApi(), credits: { remaining: null, refill: { interval: 'daily', amount: 5 } } });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe('`credits.remaining` must be provided when `credits.refill` is set.');
  });

  test('a monthly refill without refillDay → 400', async () => {
    const res = await h.call('keys.createKey', { apiId: await h.createApi(), credits: { remaining: 5, refill: { interval: 'monthly', amount: 5 } } });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe('`refillDay` must be provided when the refill interval is `monthly`.');
  });

  test('a rejected request creates nothing: no identity appears for its externalId', async () => {
    await h.call('keys.createKey', { apiId: await h.createApi(), externalId: 'ghost_user', byteLength: 1 });
    const { WORKSPACE_ID } = await import('../../../../src/storage/records.js');
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'ghost_user')).toBeNull();
  });
});
