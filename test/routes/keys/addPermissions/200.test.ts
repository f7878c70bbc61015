import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('keys.addPermissions → 200', () => {
  const h = useHarness();
  const add = async (keyId: string, permissions: string[], rootKey?: string) => {
    const res = await h.call('keys.addPermissions', { keyId, permissions }, rootKey ? { rootKey } : {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { id: string; name: string; slug: string; description?: string }[];
  };
  const getKey = async (keyId: string) => (await h.call('keys.getKey', { keyId })).body.data;
  const code = async (key: string, permissions: string) => (await h.verify(key, { permissions })).body.data.code;

  test('attaches the slugs; verification grants them at once', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    expect(await code(key, 'docs.read')).toBe('INSUFFICIENT_PERMISSIONS');
    const data = await add(keyId, ['docs.read', 'docs.write']);
    expect(data.map((p) => p.slug)).toEqual(['docs.read', 'docs.write']);
    for (const p of data) expect(p).toEqual({ id: expect.stringMatching(/^perm_/), name: p.slug, slug: p.slug });
    expect(await code(key, 'docs.read AND docs.write')).toBe('VALID');
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['docs.read', 'docs.write']);
  });

  test('answers the previous direct permissions by slug, then the new ones; never a role\'s', async () => {
    expect((await h.call('permissions.createRole', { name: 'ap_role', permissions: ['ap.role.only'] })).status).toBe(200);
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['ap.zeta', 'ap.alpha'], roles: ['ap_role'] });
    const data = await add(keyId, ['ap.new2', 'ap.alpha', 'ap.new1']);
    expect(data.map((p) => p.slug)).toEqual(['ap.alpha', 'ap.zeta', 'ap.new2', 'ap.new1']);
    // The role still counts for the key, but is not a direct permission.
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['ap.alpha', 'ap.new1', 'ap.new2', 'ap.role.only', 'ap.zeta']);
  });

  test('idempotent: attached slugs (in any case) are skipped, nothing is duplicated', async () => {
    const { keyId } = await h.createKey({ apiId: await h.createApi(), permissions: ['idem.read'] });
    const data = await add(keyId, ['IDEM.READ', 'idem.read', 'idem.Write', 'IDEM.WRITE']);
    expect(data.map((p) => p.slug)).toEqual(['idem.read', 'idem.Write']);
    const again = await add(keyId, ['idem.write']);
    // By slug in code-point order, as the other RBAC answers: upper case first.
    expect(again.map((p) => p.slug)).toEqual(['idem.Write', 'idem.read']);
    expect([...(await getKey(keyId)).permissions].sort()).toEqual(['idem.Write', 'idem.read']);
  });

  test('an existing permission is matched case-insensitively; the key stores its own slug', async () => {
    const created = await h.call('permissions.createPermission', { name: 'Billing admin', slug: 'Billing.Admin', description: 'all of billing' });
    expect(created.status).toBe(200);
    const { keyId, key } = await h.createKey({ apiId: await h.createApi() });
    const data = await add(keyId, ['billing.admin']);
    expect(data).toEqual([{ id: created.body.data.permissionId, name: 'Billing admin', slug: 'Billing.Admin', description: 'all of billing' }]);
    expect((await getKey(keyId)).permissions).toEqual(['Billing.Admin']);
    expect(await code(key, 'Billing.Admin')).toBe('VALID');
  });

  test('unknown slugs are created (name = slug) when the root key may create permissions', async () => {
    const { permissions } = h.keygate.services.storage;
    expect(await permissions.findBySlug(WORKSPACE_ID, 'fresh.slug')).toBeNull();
    const { keyId } = await h.createKey({ apiId: await h.createApi() });
    await add(keyId, ['fresh.slug']);
    expect(await permissions.findBySlug(WORKSPACE_ID, 'fresh.slug')).toMatchObject({ name: 'fresh.slug', slug: 'fresh.slug' });
  });

  test('a root key scoped to the key\'s API with add_permission_to_key suffices for existing slugs', async () => {
    expect((await h.call('permissions.createPermission', { name: 'scoped', slug: 'scoped.read' })).status).toBe(200);
    const apiId = await h.createApi();
    const { keyId, key } = await h.createKey({ apiId });
    const scoped = await h.rootKey([`api.${apiId}.update_key`, 'rbac.*.add_permission_to_key']);
    expect((await add(keyId, ['scoped.read'], scoped)).map((p) => p.slug)).toEqual(['scoped.read']);
    expect(await code(key, 'scoped.read')).toBe('VALID');
  });

  test('the key is marked updated; the rest of it is untouched', async () => {
    const { keyId, key } = await h.createKey({ apiId: await h.createApi(), name: 'keep', meta: { a: 1 }, credits: { remaining: 3 } });
    const before = Date.now();
    await add(keyId, ['touch.me']);
    const data = await getKey(keyId);
    expect(data).toMatchObject({ name: 'keep', meta: { a: 1 }, credits: { remaining: 3 }, enabled: true });
    expect(data.updatedAt).toBeGreaterThanOrEqual(before);
    expect((await h.verify(key)).body.data).toMatchObject({ valid: true, credits: 2 });
  });
});
