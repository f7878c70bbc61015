import { describe, expect, test } from 'vitest';
import { WORKSPACE_ID } from '../../../../src/storage/records.js';
import { useHarness } from '../../../support/harness.js';

describe('permissions.createPermission → 200', () => {
  const h = useHarness();

  test('creates a permission and returns only its id', async () => {
    const res = await h.call('permissions.createPermission', { name: 'Read documents', slug: 'documents.read', description: 'may read' });
    expect(res.status).toBe(200);
    expect(res.body.meta.requestId).toMatch(/^req_/);
    expect(Object.keys(res.body.data)).toEqual(['permissionId']);
    expect(res.body.data.permissionId).toMatch(/^perm_[1-9A-HJ-NP-Za-km-z]+$/);
    const stored = await h.keygate.services.storage.permissions.findBySlug(WORKSPACE_ID, 'documents.read');
    expect(stored).toMatchObject({ id: res.body.data.permissionId, name: 'Read documents', slug: 'documents.read', description: 'may read' });
  });

  test('every slug character class and the 1/128 length boundaries are accepted', async () => {
    for (const slug of ['a', 's'.repeat(128), 'api:v1_x-y.z*']) {
      const res = await h.call('permissions.createPermission', { name: 'n', slug });
      expect(res.status).toBe(200);
    }
  });

  test('names are not unique; an empty description is stored as none', async () => {
    const a = await h.call('permissions.createPermission', { name: 'Same', slug: 'same.one', description: '' });
    const b = await h.call('permissions.createPermission', { name: 'Same', slug: 'same.two' });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const got = await h.call('permissions.getPermission', { permission: 'same.one' });
    expect(got.body.data).toEqual({ id: a.body.data.permissionId, name: 'Same', slug: 'same.one' });
  });
});
