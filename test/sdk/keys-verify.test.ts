/** keys.verifyKey details beyond core.test.ts, through the official SDK (split from keys.test.ts for length). */
import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { waitForWindowRoom } from '../support/time.js';
import { sdkFor } from './support.js';

const DOCS = 'https://unkey.com/docs/errors';
const MINUTE = 60_000;
const rejection = (p: Promise<unknown>): Promise<unknown> => p.then(() => { throw new Error('expected the SDK call to fail'); }, (e: unknown) => e);

describe('the official SDK against keygate: keys.verifyKey details', () => {
  const h = useHarness();
  const newApi = async (name: string) => (await sdkFor(h).apis.createApi({ name })).data.apiId;

  test('permission queries with AND, OR and parentheses, over direct and role permissions', async () => {
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-query');
    await unkey.permissions.createRole({ name: 'sdk-q-role', permissions: ['billing.read'] });
    const { key } = (await unkey.keys.createKey({ apiId, permissions: ['docs.read', 'docs.write'], roles: ['sdk-q-role'] })).data;

    const cases: [string, boolean][] = [
      ['docs.read', true],
      ['docs.read AND docs.write', true],
      ['docs.read AND admin.all', false],
      ['admin.all OR docs.write', true],
      ['admin.all OR admin.some', false],
      ['(admin.all OR docs.read) AND billing.read', true],
      ['(admin.all OR docs.read) AND billing.write', false],
      ['admin.all OR (docs.write AND billing.read)', true],
    ];
    for (const [permissions, valid] of cases) {
      const { data } = await unkey.keys.verifyKey({ key, permissions });
      expect({ permissions, valid: data.valid, code: data.code }).toEqual({ permissions, valid, code: valid ? 'VALID' : 'INSUFFICIENT_PERMISSIONS' });
      expect([...data.permissions!].sort()).toEqual(['billing.read', 'docs.read', 'docs.write']);
      expect(data.roles).toEqual(['sdk-q-role']);
    }

    // An unknown key is NOT_FOUND before its query is parsed.
    expect((await unkey.keys.verifyKey({ key: 'sdk_not_a_key', permissions: 'docs.read AND' })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
    for (const permissions of ['docs.read AND', '(docs.read', 'docs.read OR OR docs.write']) {
      const bad = await rejection(unkey.keys.verifyKey({ key, permissions }));
      expect(bad).toBeInstanceOf(errors.BadRequestErrorResponse);
      expect((bad as errors.BadRequestErrorResponse).data$.error).toMatchObject({ status: 400, type: `${DOCS}/user/bad_request/permissions_query_syntax_error` });
    }
  });

  test('DISABLED and EXPIRED carry the key data; a failed check spends no credits', async () => {
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-states');
    const disabled = (await unkey.keys.createKey({ apiId, enabled: false, name: 'off', credits: { remaining: 3 } })).data;
    const expires = Date.now() - 1000;
    const expired = (await unkey.keys.createKey({ apiId, expires, meta: { m: 1 }, credits: { remaining: 3 } })).data;

    expect((await unkey.keys.verifyKey({ key: disabled.key })).data).toMatchObject({ valid: false, code: 'DISABLED', keyId: disabled.keyId, name: 'off', enabled: false, credits: 3 });
    expect((await unkey.keys.verifyKey({ key: expired.key })).data).toMatchObject({ valid: false, code: 'EXPIRED', keyId: expired.keyId, expires, meta: { m: 1 }, credits: 3 });
    expect((await unkey.keys.getKey({ keyId: expired.keyId })).data.credits).toEqual({ remaining: 3 });
    // A syntax error is reported for a found key even when it would fail a later check.
    expect(await rejection(unkey.keys.verifyKey({ key: disabled.key, permissions: 'a AND' }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('credits: the cost is deducted; USAGE_EXCEEDED leaves the balance; cost 0 always passes', async () => {
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-credits-verify');
    const { key, keyId } = (await unkey.keys.createKey({ apiId, credits: { remaining: 10 } })).data;

    expect((await unkey.keys.verifyKey({ key })).data).toMatchObject({ valid: true, credits: 9 });
    expect((await unkey.keys.verifyKey({ key, credits: { cost: 4 } })).data).toMatchObject({ valid: true, credits: 5 });
    expect((await unkey.keys.verifyKey({ key, credits: { cost: 6 } })).data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED', credits: 5 });
    expect((await unkey.keys.verifyKey({ key, credits: { cost: 5 } })).data).toMatchObject({ valid: true, code: 'VALID', credits: 0 });
    expect((await unkey.keys.verifyKey({ key })).data).toMatchObject({ valid: false, code: 'USAGE_EXCEEDED', credits: 0 });
    expect((await unkey.keys.verifyKey({ key, credits: { cost: 0 } })).data).toMatchObject({ valid: true, code: 'VALID', credits: 0 });
    expect((await unkey.keys.getKey({ keyId })).data.credits).toEqual({ remaining: 0 });

    const unlimited = (await unkey.keys.createKey({ apiId })).data;
    const free = (await unkey.keys.verifyKey({ key: unlimited.key, credits: { cost: 1000 } })).data;
    expect(free).toMatchObject({ valid: true, code: 'VALID' });
    expect(free).not.toHaveProperty('credits');

    expect(await rejection(unkey.keys.verifyKey({ key, credits: { cost: -1 } }))).toBeInstanceOf(errors.BadRequestErrorResponse);
  });

  test('inline and named rate limits: reported per limit, RATE_LIMITED when exceeded, costs honoured', async () => {
    await waitForWindowRoom(MINUTE, 10_000);
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-limits');
    const { key, keyId } = (await unkey.keys.createKey({ apiId, ratelimits: [{ name: 'named', limit: 5, duration: MINUTE }] })).data;
    const namedId = (await unkey.keys.getKey({ keyId })).data.ratelimits![0]!.id;
    const windowEnd = (Math.floor(Date.now() / MINUTE) + 1) * MINUTE;

    const first = (await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'inline', limit: 2, duration: MINUTE }, { name: 'named', cost: 3 }] })).data;
    expect(first).toMatchObject({ valid: true, code: 'VALID' });
    expect(first.ratelimits).toHaveLength(2);
    expect(first.ratelimits).toContainEqual({ id: '', name: 'inline', limit: 2, duration: MINUTE, reset: windowEnd, remaining: 1, exceeded: false, autoApply: false });
    expect(first.ratelimits).toContainEqual({ id: namedId, name: 'named', limit: 5, duration: MINUTE, reset: windowEnd, remaining: 2, exceeded: false, autoApply: false });

    // Not auto-applied: a verification that does not name the limit is not limited by it.
    const plain = (await unkey.keys.verifyKey({ key })).data;
    expect(plain).toMatchObject({ valid: true });
    expect(plain).not.toHaveProperty('ratelimits');

    // The named limit has 2 left: a cost of 3 is refused, all or nothing.
    const refused = (await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'inline', limit: 2, duration: MINUTE }, { name: 'named', cost: 3 }] })).data;
    expect(refused).toMatchObject({ valid: false, code: 'RATE_LIMITED' });
    // A denied limit reports 0; the one that passed reports what is still available, uncommitted.
    expect(refused.ratelimits!.find((r) => r.name === 'named')).toMatchObject({ exceeded: true, remaining: 0 });
    expect(refused.ratelimits!.find((r) => r.name === 'inline')).toMatchObject({ exceeded: false, remaining: 1 });

    expect((await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'inline', limit: 2, duration: MINUTE }] })).data.ratelimits![0]).toMatchObject({ remaining: 0, exceeded: false });
    const limited = (await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'inline', limit: 2, duration: MINUTE }] })).data;
    expect(limited).toMatchObject({ valid: false, code: 'RATE_LIMITED', ratelimits: [{ name: 'inline', remaining: 0, exceeded: true }] });
    // The refused call consumed nothing from the named limit either: 2 are left.
    expect((await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'named', cost: 2 }] })).data).toMatchObject({ valid: true, ratelimits: [{ name: 'named', remaining: 0 }] });
  });

  test('tags are accepted; 412 for an unknown limit name and 400 for an inline duration under a second', async () => {
    await waitForWindowRoom(MINUTE, 5_000);
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-tags');
    await unkey.identities.createIdentity({ externalId: 'verify_412', ratelimits: [{ name: 'shared', limit: 10, duration: MINUTE }] });
    const { key, keyId } = (await unkey.keys.createKey({ apiId, externalId: 'verify_412' })).data;

    expect((await unkey.keys.verifyKey({ key, tags: ['path=/v1/weather', 'region=eu-west-1', 'any text, really'] })).data)
      .toMatchObject({ valid: true, code: 'VALID', keyId, identity: { externalId: 'verify_412' } });
    // A name the identity defines is known.
    expect((await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'shared' }] })).data.ratelimits).toEqual([
      expect.objectContaining({ name: 'shared', limit: 10, remaining: 9 }),
    ]);

    const unknown = await rejection(unkey.keys.verifyKey({ key, ratelimits: [{ name: 'tokens' }] }));
    // The SDK declares no 412 for verifyKey, so it surfaces as APIError.
    expect(unknown).toBeInstanceOf(errors.APIError);
    expect((unknown as errors.APIError).statusCode).toBe(412);
    expect(JSON.parse((unknown as errors.APIError).body).error).toMatchObject({ status: 412, type: `${DOCS}/unkey/application/precondition_failed` });
    // Half an inline pair is a name reference, so it is unknown too.
    expect(await rejection(unkey.keys.verifyKey({ key, ratelimits: [{ name: 'tokens', limit: 5 }] }))).toMatchObject({ statusCode: 412 });

    const tooShort = await rejection(unkey.keys.verifyKey({ key, ratelimits: [{ name: 'burst', limit: 5, duration: 500 }] }));
    expect(tooShort).toBeInstanceOf(errors.BadRequestErrorResponse);
    expect(await rejection(unkey.keys.verifyKey({ key, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }))).toBeInstanceOf(errors.BadRequestErrorResponse);
    // Nothing was consumed by the refused calls.
    expect((await unkey.keys.verifyKey({ key, ratelimits: [{ name: 'shared' }] })).data.ratelimits![0]).toMatchObject({ remaining: 8 });
  });

  test('a root key that may verify no API gets a 403; one scoped to another API gets NOT_FOUND', async () => {
    const unkey = sdkFor(h);
    const apiId = await newApi('sdk-verify-scope');
    const otherApi = await newApi('sdk-verify-other');
    const { key } = (await unkey.keys.createKey({ apiId })).data;

    const forbidden = await rejection(sdkFor(h, await h.rootKey(['api.*.read_key'])).keys.verifyKey({ key }));
    expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
    expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('api.*.verify_key');
    expect((await sdkFor(h, await h.rootKey([`api.${otherApi}.verify_key`])).keys.verifyKey({ key })).data).toEqual({ valid: false, code: 'NOT_FOUND' });
    expect((await sdkFor(h, await h.rootKey([`api.${apiId}.verify_key`])).keys.verifyKey({ key })).data).toMatchObject({ valid: true, code: 'VALID' });
  });
});
