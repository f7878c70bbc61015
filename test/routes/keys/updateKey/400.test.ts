import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.updateKey → 400', () => {
  const h = useHarness();

  test.each([
    ['keyId missing', { name: 'x' }, '/required'],
    ['keyId with a dash', { keyId: 'key-1' }, '/properties/keyId/pattern'],
    ['enabled null (not nullable)', { enabled: null }, '/properties/enabled/type'],
    ['ratelimits null (not nullable)', { ratelimits: null }, '/properties/ratelimits/type'],
    ['roles null (not nullable)', { roles: null }, '/properties/roles/type'],
    ['permissions null (not nullable)', { permissions: null }, '/properties/permissions/type'],
    ['an empty name', { name: '' }, '/properties/name/minLength'],
    ['externalId with a space', { externalId: 'a b' }, '/properties/externalId/pattern'],
    ['expires past the year 2100', { expires: 4102444800001 }, '/properties/expires/maximum'],
    ['meta that is not an object', { meta: [1] }, '/properties/meta/type'],
    ['negative credits', { credits: { remaining: -1 } }, '/properties/credits/properties/remaining/minimum'],
    ['a refill without amount', { credits: { refill: { interval: 'daily' } } }, '/properties/credits/properties/refill/required'],
    ['a weekly refill', { credits: { refill: { interval: 'weekly', amount: 1 } } }, '/properties/credits/properties/refill/properties/interval/enum'],
    ['a permission slug with a space', { permissions: ['docs read'] }, '/properties/permissions/items/pattern'],
    ['an unknown field', { prefix: 'sk' }, '/additionalProperties'],
  ])('%s', async (_name, fields, location) => {
    const body = _name === 'keyId missing' || 'keyId' in fields ? fields : { keyId: 'key_123', ...fields };
    const res = await h.call('keys.updateKey', body);
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
  });

  test.each([
    ['a daily refill with refillDay', { remaining: 5, refill: { interval: 'daily', amount: 5, refillDay: 3 } }, '`refillDay` must not be provided when the refill interval is `daily`.'],
    ['a monthly refill without refillDay', { remaining: 5, refill: { interval: 'monthly', amount: 5 } }, '`refillDay` must be provided when the refill interval is `monthly`.'],
    ['a refill with remaining null', { remaining: null, refill: { interval: 'daily', amount: 5 } }, '`credits.remaining` must be provided when `credits.refill` is set.'],
  ])('%s → 400 with the rule in the detail', async (_name, credits, detail) => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 1 } });
    const res = await h.call('keys.updateKey', { keyId, credits });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(detail);
    expect(res.body.error.errors).toEqual([]);
  });

  test('a refill for an unlimited key without remaining is refused rather than dropped', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const res = await h.call('keys.updateKey', { keyId, credits: { refill: { interval: 'daily', amount: 5 } } });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toMatch(/credits\.remaining.*must be provided/);
    expect((await h.verify(key)).body.data).not.toHaveProperty('credits');
  });

  test('a refused update changes nothing: no field is written and no identity is created', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), name: 'before', credits: { remaining: 2 } });
    const res = await h.call('keys.updateKey', {
      keyId, name: 'after', enabled: false, externalId: 'upd_ghost',
      credits: { remaining: 9, refill: { interval: 'monthly', amount: 9 } },
    });
    expectError(res, 400, 'unkey/application/invalid_input');
    expect((await h.call('keys.getKey', { keyId })).body.data).toMatchObject({ name: 'before', enabled: true, credits: { remaining: 2 } });
    expect((await h.verify(key)).body.data.code).toBe('VALID');
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'upd_ghost')).toBeNull();
  });
});
