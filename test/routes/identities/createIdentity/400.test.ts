import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/identities.createIdentity' failed to validate schema";

describe('identities.createIdentity → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
    for (const issue of res.body.error.errors) expect(typeof issue.message).toBe('string');
  };

  test('an externalId with a space is rejected at /properties/externalId/pattern and nothing is stored', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'user 123' });
    expectInvalid(res, '/properties/externalId/pattern');
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'user 123')).toBeNull();
  });

  test('an empty externalId is rejected at /properties/externalId/minLength', async () => {
    const res = await h.call('identities.createIdentity', { externalId: '' });
    expectInvalid(res, '/properties/externalId/minLength');
  });

  test('an externalId of 256 characters is rejected at /properties/externalId/maxLength', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'a'.repeat(256) });
    expectInvalid(res, '/properties/externalId/maxLength');
  });

  test('a missing externalId is rejected with a fix naming it', async () => {
    const res = await h.call('identities.createIdentity', { meta: { a: 1 } });
    expectInvalid(res, '/required');
    const issue = res.body.error.errors.find((e: any) => e.location === '/required');
    expect(issue.message).toContain('externalId');
    expect(issue.fix).toContain('externalId');
  });

  test('a ratelimits item without limit is rejected and the issue names the item field', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'no-limit',
      ratelimits: [{ name: 'requests', duration: 1000 }],
    });
    expectInvalid(res, '/properties/ratelimits/items/required');
    const issue = res.body.error.errors.find((e: any) => e.location === '/properties/ratelimits/items/required');
    expect(issue.message).toContain('ratelimits[0].limit');
    expect(await h.keygate.services.storage.identities.findByExternalId(WORKSPACE_ID, 'no-limit')).toBeNull();
  });

  test('a ratelimit duration below 1000 ms is rejected', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'short-duration',
      ratelimits: [{ name: 'requests', limit: 10, duration: 999, autoApply: true }],
    });
    expectInvalid(res, '/properties/ratelimits/items/properties/duration/minimum');
  });

  test('a ratelimit name shorter than 3 characters is rejected', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'short-name',
      ratelimits: [{ name: 'rq', limit: 10, duration: 1000, autoApply: true }],
    });
    expectInvalid(res, '/properties/ratelimits/items/properties/name/minLength');
  });

  test('a ratelimit limit of 0 is rejected', async () => {
    const res = await h.call('identities.createIdentity', {
      externalId: 'zero-limit',
      ratelimits: [{ name: 'requests', limit: 0, duration: 1000, autoApply: true }],
    });
    expectInvalid(res, '/properties/ratelimits/items/properties/limit/minimum');
  });

  test('more than 50 ratelimits are rejected', async () => {
    const ratelimits = Array.from({ length: 51 }, (_, i) => ({ name: `limit-${i}`, limit: 1, duration: 1000, autoApply: false }));
    const res = await h.call('identities.createIdentity', { externalId: 'too-many', ratelimits });
    expectInvalid(res, '/properties/ratelimits/maxItems');
  });

  test('meta that is not an object is rejected', async () => {
    const res = await h.call('identities.createIdentity', { externalId: 'bad-meta', meta: 'plan=pro' });
    expectInvalid(res, '/properties/meta/type');
  });
});
