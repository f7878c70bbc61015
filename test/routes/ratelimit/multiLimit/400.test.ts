import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { fresh, MINUTE } from '../support.js';

const DETAIL = "POST request body for '/v2/ratelimit.multiLimit' failed to validate schema";

describe('ratelimit.multiLimit → 400', () => {
  const h = useHarness();
  const valid = (namespace = 'api.requests') => ({ namespace, identifier: 'user_1', limit: 10, duration: MINUTE });

  const expectInvalid = (res: { status: number; body: any }, location: string, message?: string): void => {
    expectError(res, 400, 'unkey/application/invalid_input');
    expect(res.body.error.detail).toBe(DETAIL);
    const issue = res.body.error.errors.find((e: any) => e.location === location);
    expect(issue, JSON.stringify(res.body.error.errors)).toBeDefined();
    if (message) expect(issue.message).toContain(message);
  };

  test('a single object instead of an array is rejected', async () => {
    expectInvalid(await h.call('ratelimit.multiLimit', valid()), '/type', 'array');
  });

  test('an empty array is rejected', async () => {
    expectInvalid(await h.call('ratelimit.multiLimit', []), '/minItems');
  });

  test('101 items are rejected; 100 are accepted', async () => {
    const ns = fresh('max-items');
    expectInvalid(await h.call('ratelimit.multiLimit', Array.from({ length: 101 }, () => valid(ns))), '/maxItems');
    expect((await h.call('ratelimit.multiLimit', Array.from({ length: 100 }, () => valid(ns)))).status).toBe(200);
  });

  test('an item missing a field is rejected with an issue naming the item and field', async () => {
    const { limit: _omitted, ...noLimit } = valid();
    expectInvalid(await h.call('ratelimit.multiLimit', [valid(), noLimit]), '/items/required', '[1].limit');
  });

  test('item fields have ratelimit.limit\'s constraints', async () => {
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), limit: 0 }]), '/items/properties/limit/minimum');
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), duration: 999 }]), '/items/properties/duration/minimum');
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), cost: -1 }]), '/items/properties/cost/minimum');
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), identifier: '' }]), '/items/properties/identifier/minLength');
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), namespace: 'n'.repeat(513) }]), '/items/properties/namespace/maxLength');
  });

  test('an unknown property in an item is rejected', async () => {
    expectInvalid(await h.call('ratelimit.multiLimit', [{ ...valid(), async: true }]), '/items/additionalProperties', 'async');
  });

  test('an array of non-objects is rejected', async () => {
    expectInvalid(await h.call('ratelimit.multiLimit', ['ns']), '/items/type', 'object');
  });

  test('malformed JSON is rejected', async () => {
    const res = await h.call('ratelimit.multiLimit', undefined, { raw: '[{"namespace":' });
    expectError(res, 400, 'unkey/application/invalid_input');
  });

  test('an invalid batch creates no namespace and consumes nothing', async () => {
    const ns = fresh('invalid-batch');
    const res = await h.call('ratelimit.multiLimit', [valid(ns), { ...valid(ns), limit: 0 }]);
    expect(res.status).toBe(400);
    expect(await h.keygate.services.storage.namespaces.find(WORKSPACE_ID, ns)).toBeNull();
  });
});
