import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.whoami → 200', () => {
  const h = useHarness();

  test('describes the key behind a plaintext, as getKey does, with permissions sorted', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({
      apiId, name: 'mobile', meta: { team: 'ios' }, externalId: 'whoami_user', credits: { remaining: 4 },
      permissions: ['zeta.write', 'alpha.read', 'mid.list', 'alpha.read'],
    });
    const res = await h.call('keys.whoami', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.permissions).toEqual(['alpha.read', 'mid.list', 'zeta.write']);
    const viaGetKey = (await h.call('keys.getKey', { keyId })).body.data;
    expect({ ...res.body.data, permissions: undefined }).toEqual({ ...viaGetKey, permissions: undefined });
    expect(res.body.data).toMatchObject({ keyId, name: 'mobile', meta: { team: 'ios' }, credits: { remaining: 4 }, identity: { externalId: 'whoami_user' } });
    expect(res.body.data).not.toHaveProperty('plaintext');
  });

  test('role permissions are merged into the sorted permissions', async () => {
    expect((await h.call('permissions.createRole', { name: 'wh_role', permissions: ['b.role', 'a.role'] })).status).toBe(200);
    const { key } = await h.createKey({ apiId: await h.createApi(), roles: ['wh_role'], permissions: ['c.direct', 'a.role'] });
    const data = (await h.call('keys.whoami', { key })).body.data;
    expect(data.permissions).toEqual(['a.role', 'b.role', 'c.direct']);
    expect(data.roles).toEqual(['wh_role']);
  });

  test('a disabled or expired key is still described: whoami does not verify', async () => {
    const apiId = await h.createApi();
    const disabled = await h.createKey({ apiId, enabled: false });
    const expired = await h.createKey({ apiId, expires: Date.now() - 60_000 });
    expect((await h.call('keys.whoami', { key: disabled.key })).body.data).toMatchObject({ keyId: disabled.keyId, enabled: false });
    expect((await h.call('keys.whoami', { key: expired.key })).body.data).toMatchObject({ keyId: expired.keyId, enabled: true });
  });

  test('it consumes nothing: credits stay as they were', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), credits: { remaining: 2 } });
    await h.call('keys.whoami', { key });
    await h.call('keys.whoami', { key });
    expect((await h.call('keys.getKey', { keyId })).body.data.credits).toEqual({ remaining: 2 });
  });

  test('a root key with api.<apiId>.read_key may look up keys of that API', async () => {
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.read_key`]);
    const res = await h.call('keys.whoami', { key }, { rootKey: scoped });
    expect(res.status).toBe(200);
    expect(res.body.data.keyId).toBe(keyId);
  });
});
