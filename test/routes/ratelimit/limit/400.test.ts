import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';

const DETAIL = "POST request body for '/v2/ratelimit.limit' failed to validate schema";
const VALID = { namespace: 'api.requests', identifier: 'user_1', limit: 10, duration: 60_000 };

describe('ratelimit.limit → 400', () => {
  const h = useHarness();

  const expectInvalid = (res: { status: number; body: any }, location: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.title).toBe('Bad Request');
    expect(res.body.error.detail).toBe(DETAIL);
    expect(res.body.error.errors.map((e: any) => e.location)).toContain(location);
    for (const issue of res.body.error.errors) expect(typeof issue.message).toBe('string');
  };

  for (const field of ['namespace', 'identifier', 'limit', 'duration'] as const) {
    test(`a missing ${field} is rejected with an issue naming it`, async () => {
      const { [field]: _omitted, ...body } = VALID;
      const res = await h.call('ratelimit.limit', body);
      expectInvalid(res, '/required');
      const issue = res.body.error.errors.find((e: any) => e.location === '/required');
      expect(issue.message).toContain(field);
      expect(issue.fix).toContain(field);
    });
  }

  test('an empty namespace is rejected, and no namespace is created', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, namespace: '' });
    expectInvalid(res, '/properties/namespace/minLength');
    expect(await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, '')).toBeNull();
  });

  test('an empty identifier is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, identifier: '' });
    expectInvalid(res, '/properties/identifier/minLength');
  });

  test('a namespace longer than 512 characters is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, namespace: 'n'.repeat(513) });
    expectInvalid(res, '/properties/namespace/maxLength');
  });

  test('a limit of 0 is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, limit: 0 });
    expectInvalid(res, '/properties/limit/minimum');
  });

  test('a fractional limit is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, limit: 1.5 });
    expectInvalid(res, '/properties/limit/type');
  });

  test('a duration of 999 ms is rejected; 1000 ms is accepted', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, duration: 999 });
    expectInvalid(res, '/properties/duration/minimum');
    expect((await h.call('ratelimit.limit', { ...VALID, duration: 1000 })).status).toBe(200);
  });

  test('a duration above 30 days is rejected; exactly 30 days is accepted', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, duration: 2_592_000_001 });
    expectInvalid(res, '/properties/duration/maximum');
    expect((await h.call('ratelimit.limit', { ...VALID, duration: 2_592_000_000 })).status).toBe(200);
  });

  test('a negative cost is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, cost: -1 });
    expectInvalid(res, '/properties/cost/minimum');
  });

  test('a string limit is not coerced', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, limit: '10' });
    expectInvalid(res, '/properties/limit/type');
  });

  test('an unknown property is rejected', async () => {
    const res = await h.call('ratelimit.limit', { ...VALID, async: true });
    expectInvalid(res, '/additionalProperties');
    expect(res.body.error.errors.find((e: any) => e.location === '/additionalProperties').message).toContain('async');
  });

  test('every offending field is reported at once', async () => {
    const res = await h.call('ratelimit.limit', { namespace: '', identifier: '', limit: 0, duration: 10 });
    expectError(res, 400, 'unkey/application/invalid_input');
    const locations = res.body.error.errors.map((e: any) => e.location);
    expect(locations).toEqual(expect.arrayContaining([
      '/properties/namespace/minLength', '/properties/identifier/minLength', '/properties/limit/minimum', '/properties/duration/minimum',
    ]));
  });
});
