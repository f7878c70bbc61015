/**
 * keys.verifyKey behaviours of Unkey's API that surprise users (its documented pitfalls) and
 * span several outcomes: the numbers in the test names follow that list.
 */
import { describe, expect, test } from 'vitest';
import { expectError } from '../../../support/auth-cases.js';
import { useHarness } from '../../../support/harness.js';
import { waitForWindowRoom } from '../../../support/time.js';

const MINUTE = 60_000;

describe('keys.verifyKey: pitfalls', () => {
  const h = useHarness();

  test('2: a failed check other than NOT_FOUND carries the full key data (identity, meta, permissions, roles, credits, limits)', async () => {
    await h.call('permissions.createRole', { name: 'p2-role', permissions: ['p2.role.perm'] });
    const identityId = await h.createIdentity({ externalId: 'p2_owner', meta: { tier: 'gold' } });
    const expires = Date.now() + 3_600_000;
    const { keyId, key } = await h.createKey({
      apiId: await h.createApi(), name: 'p2 key', meta: { plan: 'pro' }, externalId: 'p2_owner', expires,
      enabled: false, credits: { remaining: 4 }, permissions: ['p2.direct'], roles: ['p2-role'],
    });
    const data = (await h.verify(key)).body.data;
    const { permissions, ...rest } = data;
    expect(rest).toEqual({
      valid: false, code: 'DISABLED', keyId, name: 'p2 key', meta: { plan: 'pro' }, expires, enabled: false, credits: 4,
      roles: ['p2-role'], identity: { id: identityId, externalId: 'p2_owner', meta: { tier: 'gold' } },
    });
    expect([...permissions].sort()).toEqual(['p2.direct', 'p2.role.perm']);
  });

  test('3: a key holding `docs.*` does not satisfy `docs.read`; a root key holding `*` or `api.*.*` may verify nothing', async () => {
    const { key } = await h.createKey({ apiId: await h.createApi(), permissions: ['docs.*'] });
    expect((await h.verify(key, { permissions: 'docs.read' })).body.data).toMatchObject({ valid: false, code: 'INSUFFICIENT_PERMISSIONS' });
    expect((await h.verify(key, { permissions: 'docs.*' })).body.data).toMatchObject({ valid: true, code: 'VALID' });
    const wildcards = await h.rootKey(['*', 'api.*.*']);
    const res = await h.call('keys.verifyKey', { key }, { rootKey: wildcards });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.detail).toContain('api.*.verify_key');
    expectError(await h.call('apis.createApi', { name: 'not-created' }, { rootKey: wildcards }), 403, 'forbidden');
  });

  test('8: the order is disabled → expired → permissions → rate limits → credits; each failure names the first failed check', async () => {
    await waitForWindowRoom(MINUTE);
    const apiId = await h.createApi();
    const past = Date.now() - 1000;
    const both = await h.createKey({ apiId, enabled: false, expires: past });
    expect((await h.verify(both.key)).body.data).toMatchObject({ valid: false, code: 'DISABLED' });
    const expired = await h.createKey({ apiId, expires: past, permissions: ['a'] });
    expect((await h.verify(expired.key, { permissions: 'b' })).body.data).toMatchObject({ valid: false, code: 'EXPIRED' });
    // Permissions fail while the limit still has room: INSUFFICIENT_PERMISSIONS, nothing shown from the limits.
    const limited = await h.createKey({
      apiId, credits: { remaining: 1 }, permissions: ['a'],
      ratelimits: [{ name: 'once', limit: 1, duration: MINUTE, autoApply: true }],
    });
    const denied = (await h.verify(limited.key, { permissions: 'b' })).body.data;
    expect(denied).toMatchObject({ valid: false, code: 'INSUFFICIENT_PERMISSIONS', credits: 1 });
    expect(denied).not.toHaveProperty('ratelimits');
    expect((await h.verify(limited.key)).body.data).toMatchObject({ valid: true, code: 'VALID', credits: 0 });
    // Both the limit and the credits are exhausted now: the limit, checked first, answers.
    expect((await h.verify(limited.key)).body.data).toMatchObject({ valid: false, code: 'RATE_LIMITED', credits: 0 });
  });

  test('8: a verification refused for its permissions consumes neither rate limits nor credits', async () => {
    await waitForWindowRoom(MINUTE);
    const { key } = await h.createKey({
      apiId: await h.createApi(), credits: { remaining: 2 }, permissions: ['docs.read'],
      ratelimits: [{ name: 'requests', limit: 2, duration: MINUTE, autoApply: true }],
    });
    for (let i = 0; i < 3; i++) {
      const refused = (await h.verify(key, { permissions: 'docs.write' })).body.data;
      expect(refused).toMatchObject({ valid: false, code: 'INSUFFICIENT_PERMISSIONS', credits: 2 });
    }
    const first = (await h.verify(key, { permissions: 'docs.read' })).body.data;
    expect(first).toMatchObject({ valid: true, code: 'VALID', credits: 1 });
    expect(first.ratelimits).toEqual([expect.objectContaining({ name: 'requests', remaining: 1, exceeded: false })]);
  });

  test('11: naming an auto-applied limit replaces its cost of 1 (0 reads it, 2 takes two); named without a cost it is taken once', async () => {
    await waitForWindowRoom(MINUTE);
    const { key } = await h.createKey({
      apiId: await h.createApi(), ratelimits: [{ name: 'requests', limit: 5, duration: MINUTE, autoApply: true }],
    });
    const remaining = async (extra: Record<string, unknown>): Promise<number> => {
      const data = (await h.verify(key, extra)).body.data;
      expect(data.ratelimits).toHaveLength(1);
      expect(data.ratelimits[0]).toMatchObject({ name: 'requests', autoApply: true });
      return data.ratelimits[0].remaining;
    };
    expect(await remaining({ ratelimits: [{ name: 'requests', cost: 0 }] })).toBe(5);
    expect(await remaining({ ratelimits: [{ name: 'requests', cost: 2 }] })).toBe(3);
    expect(await remaining({ ratelimits: [{ name: 'requests' }] })).toBe(2);
    // credits.cost does not change what an auto-applied limit takes.
    expect(await remaining({ credits: { cost: 2 } })).toBe(1);
  });

  test('12 (differs, docs/differences-from-unkey.md): an inline limit of 0 is RATE_LIMITED, cost 0 included, instead of being ignored; nothing is spent', async () => {
    await waitForWindowRoom(MINUTE);
    const { key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 5 } });
    for (const extra of [{}, { cost: 3 }]) {
      const data = (await h.verify(key, { ratelimits: [{ name: 'blocked', limit: 0, duration: MINUTE, ...extra }] })).body.data;
      expect(data).toMatchObject({ valid: false, code: 'RATE_LIMITED', credits: 5 });
      expect(data.ratelimits).toEqual([expect.objectContaining({ id: '', name: 'blocked', limit: 0, remaining: 0, exceeded: true })]);
    }
    // A limit of 0 blocks even a cost-0 read, as an override of 0 does in ratelimit.limit.
    const read = (await h.verify(key, { ratelimits: [{ name: 'blocked', limit: 0, duration: MINUTE, cost: 0 }] })).body.data;
    expect(read).toMatchObject({ valid: false, code: 'RATE_LIMITED', credits: 5 });
  });

  test('16: a bad permissions query is NOT_FOUND for keys the root key may not see or whose API is deleted; 400 for a disabled key it may see', async () => {
    const apiA = await h.createApi('p16-a');
    const apiB = await h.createApi('p16-b');
    const { key: keyB } = await h.createKey({ apiId: apiB, permissions: ['a'] });
    const scopedToA = await h.rootKey([`api.${apiA}.verify_key`]);
    const hidden = await h.call('keys.verifyKey', { key: keyB, permissions: 'a AND' }, { rootKey: scopedToA });
    expect(hidden.status).toBe(200);
    expect(hidden.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });

    const apiGone = await h.createApi('p16-gone');
    const { key: goneKey } = await h.createKey({ apiId: apiGone });
    expect((await h.call('apis.deleteApi', { apiId: apiGone })).status).toBe(200);
    const gone = await h.verify(goneKey, { permissions: '(a' });
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ valid: false, code: 'NOT_FOUND' });

    const { key: disabled } = await h.createKey({ apiId: apiA, enabled: false });
    expectError(await h.call('keys.verifyKey', { key: disabled, permissions: 'a OR' }, { rootKey: scopedToA }), 400, 'user/bad_request/permissions_query_syntax_error');
  });

  test('35: limit names are case-sensitive: `Requests` and `requests` are two limits; a name in another case is unknown (412)', async () => {
    await waitForWindowRoom(MINUTE);
    const { keyId, key } = await h.createKey({
      apiId: await h.createApi(),
      ratelimits: [
        { name: 'requests', limit: 1, duration: MINUTE, autoApply: true },
        { name: 'Requests', limit: 5, duration: MINUTE, autoApply: false },
      ],
    });
    const stored = (await h.call('keys.getKey', { keyId })).body.data.ratelimits.map((r: any) => r.name).sort();
    expect(stored).toEqual(['Requests', 'requests']);
    const both = (await h.verify(key, { ratelimits: [{ name: 'Requests' }] })).body.data;
    expect(both.code).toBe('VALID');
    expect(both.ratelimits.find((r: any) => r.name === 'requests')).toMatchObject({ remaining: 0 });
    expect(both.ratelimits.find((r: any) => r.name === 'Requests')).toMatchObject({ remaining: 4 });
    const res = await h.verify(key, { ratelimits: [{ name: 'REQUESTS' }] });
    expectError(res, 412, 'unkey/application/precondition_failed');
    expect(res.body.error.detail).toContain("'REQUESTS'");
  });
});
