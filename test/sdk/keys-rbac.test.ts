import * as errors from '@unkey/api/models/errors';
import { describe, expect, test } from 'vitest';
import { useHarness } from '../support/harness.js';
import { sdkFor } from './support.js';

describe('the official SDK against keygate: key permissions and roles', () => {
  const h = useHarness();
  const slugs = (list: { slug: string }[]) => list.map((p) => p.slug);
  const names = (list: { name: string }[]) => list.map((r) => r.name);

  test('add, remove and set permissions; verification follows each change', async () => {
    const unkey = sdkFor(h);
    const { data: api } = await unkey.apis.createApi({ name: 'sdk-rbac' });
    const { data: created } = await unkey.keys.createKey({ apiId: api.apiId, permissions: ['sdk.read'] });
    const check = async (permissions: string) => (await unkey.keys.verifyKey({ key: created.key, permissions })).data.code;

    const added = (await unkey.keys.addPermissions({ keyId: created.keyId, permissions: ['sdk.write', 'sdk.admin'] })).data;
    expect(slugs(added)).toEqual(['sdk.read', 'sdk.write', 'sdk.admin']);
    expect(added[1]).toEqual({ id: expect.stringMatching(/^perm_/), name: 'sdk.write', slug: 'sdk.write' });
    expect(await check('sdk.read AND sdk.write AND sdk.admin')).toBe('VALID');

    const remaining = (await unkey.keys.removePermissions({ keyId: created.keyId, permissions: ['sdk.admin'] })).data;
    expect(slugs(remaining).sort()).toEqual(['sdk.read', 'sdk.write']);
    expect(await check('sdk.admin')).toBe('INSUFFICIENT_PERMISSIONS');

    const set = (await unkey.keys.setPermissions({ keyId: created.keyId, permissions: ['sdk.admin', 'sdk.new'] })).data;
    expect(slugs(set)).toEqual(['sdk.admin', 'sdk.new']);
    expect(await check('sdk.read')).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await unkey.keys.getKey({ keyId: created.keyId })).data.permissions?.slice().sort()).toEqual(['sdk.admin', 'sdk.new']);

    expect((await unkey.keys.setPermissions({ keyId: created.keyId, permissions: [] })).data).toEqual([]);
    expect(await check('sdk.admin OR sdk.new')).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('add, remove and set roles; the roles\' permissions follow each change', async () => {
    const unkey = sdkFor(h);
    await unkey.permissions.createRole({ name: 'sdk_editor', description: 'edits', permissions: ['sdk.docs.write'] });
    await unkey.permissions.createRole({ name: 'sdk_viewer', permissions: ['sdk.docs.read'] });
    const { data: api } = await unkey.apis.createApi({ name: 'sdk-roles' });
    const { data: created } = await unkey.keys.createKey({ apiId: api.apiId });
    const check = async (permissions: string) => (await unkey.keys.verifyKey({ key: created.key, permissions })).data.code;

    const added = (await unkey.keys.addRoles({ keyId: created.keyId, roles: ['SDK_EDITOR', 'sdk_viewer'] })).data;
    expect(names(added)).toEqual(['sdk_editor', 'sdk_viewer']);
    expect(added[0]).toMatchObject({ id: expect.stringMatching(/^role_/), description: 'edits', permissions: [{ slug: 'sdk.docs.write' }] });
    expect(await check('sdk.docs.write AND sdk.docs.read')).toBe('VALID');

    const remaining = (await unkey.keys.removeRoles({ keyId: created.keyId, roles: ['sdk_editor'] })).data;
    expect(names(remaining)).toEqual(['sdk_viewer']);
    expect(await check('sdk.docs.write')).toBe('INSUFFICIENT_PERMISSIONS');

    const set = (await unkey.keys.setRoles({ keyId: created.keyId, roles: ['sdk_editor'] })).data;
    expect(names(set)).toEqual(['sdk_editor']);
    expect(await check('sdk.docs.read')).toBe('INSUFFICIENT_PERMISSIONS');
    expect(await check('sdk.docs.write')).toBe('VALID');
    expect((await unkey.keys.getKey({ keyId: created.keyId })).data.roles).toEqual(['sdk_editor']);

    expect((await unkey.keys.setRoles({ keyId: created.keyId, roles: [] })).data).toEqual([]);
    expect(await check('sdk.docs.write')).toBe('INSUFFICIENT_PERMISSIONS');
  });

  test('errors arrive as the SDK error classes', async () => {
    const unkey = sdkFor(h);
    const { data: api } = await unkey.apis.createApi({ name: 'sdk-rbac-errors' });
    const { data: created } = await unkey.keys.createKey({ apiId: api.apiId, permissions: ['sdk.err.kept'] });
    const keyId = created.keyId;
    // Thunks: each request starts only when awaited, so no rejection is left unobserved meanwhile.
    const fail = (call: () => Promise<unknown>) => call().then(() => { throw new Error('expected a rejection'); }, (e: unknown) => e);

    const missingKey = await fail(() => unkey.keys.addPermissions({ keyId: 'key_doesnotexist', permissions: ['a.b'] }));
    expect(missingKey).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missingKey as errors.NotFoundErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/data/key_not_found');

    const missingPermission = await fail(() => unkey.keys.removePermissions({ keyId, permissions: ['sdk.err.unknown'] }));
    expect(missingPermission).toBeInstanceOf(errors.NotFoundErrorResponse);
    expect((missingPermission as errors.NotFoundErrorResponse).data$.error).toMatchObject({
      type: 'https://unkey.com/docs/errors/unkey/data/permission_not_found', detail: "Permission 'sdk.err.unknown' was not found.",
    });

    for (const call of [
      () => unkey.keys.addRoles({ keyId, roles: ['sdk_ghost'] }),
      () => unkey.keys.removeRoles({ keyId, roles: ['sdk_ghost'] }),
      () => unkey.keys.setRoles({ keyId, roles: ['sdk_ghost'] }),
    ]) {
      const missingRole = await fail(call);
      expect(missingRole).toBeInstanceOf(errors.NotFoundErrorResponse);
      expect((missingRole as errors.NotFoundErrorResponse).data$.error.detail).toBe("Role 'sdk_ghost' was not found.");
    }

    const noCreate = sdkFor(h, await h.rootKey(['api.*.update_key', 'rbac.*.add_permission_to_key', 'rbac.*.remove_permission_from_key']));
    for (const call of [
      () => noCreate.keys.addPermissions({ keyId, permissions: ['sdk.err.new'] }),
      () => noCreate.keys.setPermissions({ keyId, permissions: ['sdk.err.new'] }),
    ]) {
      const forbidden = await fail(call);
      expect(forbidden).toBeInstanceOf(errors.ForbiddenErrorResponse);
      expect((forbidden as errors.ForbiddenErrorResponse).data$.error.detail).toContain('rbac.*.create_permission');
    }
    const noRoles = sdkFor(h, await h.rootKey(['api.*.update_key']));
    await expect(noRoles.keys.addRoles({ keyId, roles: ['sdk_ghost'] })).rejects.toBeInstanceOf(errors.ForbiddenErrorResponse);

    for (const call of [
      () => unkey.keys.addPermissions({ keyId, permissions: [] }),
      () => unkey.keys.removePermissions({ keyId, permissions: ['not a slug'] }),
      () => unkey.keys.addRoles({ keyId, roles: [] }),
      () => unkey.keys.setRoles({ keyId: 'k', roles: [] }),
    ]) {
      const bad = await fail(call);
      expect(bad).toBeInstanceOf(errors.BadRequestErrorResponse);
      expect((bad as errors.BadRequestErrorResponse).data$.error.type).toBe('https://unkey.com/docs/errors/unkey/application/invalid_input');
    }

    // None of the refused calls changed the key.
    const { data: key } = await unkey.keys.getKey({ keyId });
    expect(key.permissions).toEqual(['sdk.err.kept']);
    expect(key.roles).toBeUndefined();
  });
});
