import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('keys.addPermissions / addRoles under concurrency', () => {
  const h = useHarness();

  test('20 concurrent addPermissions with different slugs on one key: all 20 are kept', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const slugs = Array.from({ length: 20 }, (_, i) => `conc.p${i}`);
    const results = await Promise.all(slugs.map((slug) => h.call('keys.addPermissions', { keyId, permissions: [slug] })));
    expect(results.map((r) => r.status)).toEqual(slugs.map(() => 200));
    // Each answer holds its own slug: no request saw its change overwritten.
    results.forEach((r, i) => expect(r.body.data.map((p: any) => p.slug)).toContain(slugs[i]));
    expect([...(await h.call('keys.getKey', { keyId })).body.data.permissions].sort()).toEqual([...slugs].sort());
    expect((await h.verify(key, { permissions: slugs.join(' AND ') })).body.data.code).toBe('VALID');
  });

  test('concurrent addRoles, addPermissions and removePermissions on one key lose nothing', async () => {
    const roles = Array.from({ length: 10 }, (_, i) => `conc_role_${i}`);
    for (const name of roles) expect((await h.call('permissions.createRole', { name, permissions: [`${name}.perm`] })).status).toBe(200);
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['conc.drop.a', 'conc.drop.b'] });
    const calls = [
      ...roles.map((name) => h.call('keys.addRoles', { keyId, roles: [name] })),
      ...Array.from({ length: 10 }, (_, i) => h.call('keys.addPermissions', { keyId, permissions: [`conc.q${i}`] })),
      h.call('keys.removePermissions', { keyId, permissions: ['conc.drop.a'] }),
      h.call('keys.removePermissions', { keyId, permissions: ['conc.drop.b'] }),
    ];
    expect((await Promise.all(calls)).every((r) => r.status === 200)).toBe(true);
    const data = (await h.call('keys.getKey', { keyId })).body.data;
    expect([...data.roles].sort()).toEqual([...roles].sort());
    const direct = Array.from({ length: 10 }, (_, i) => `conc.q${i}`);
    expect([...data.permissions].sort()).toEqual([...direct, ...roles.map((r) => `${r}.perm`)].sort());
  });
});
