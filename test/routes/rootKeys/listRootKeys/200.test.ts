import { describe, expect, test } from 'vitest';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.listRootKeys → 200', () => {
  const h = useHarness();

  test('every root key, revoked ones with revokedAt, oldest first; never a hash or a plaintext', async () => {
    const created = await h.call('rootKeys.createRootKey', { name: 'to revoke', permissions: ['api.*.verify_key', 'api.*.read_api'] });
    const { rootKeyId, key } = created.body.data;
    await h.call('rootKeys.revokeRootKey', { rootKeyId });

    const res = await h.call('rootKeys.listRootKeys', {});
    expect(res.status).toBe(200);
    const list = res.body.data;
    expect(Array.isArray(list)).toBe(true);
    expect(res.body.pagination).toBeUndefined();
    const revoked = list.find((k: any) => k.id === rootKeyId);
    expect(revoked).toMatchObject({ name: 'to revoke', permissions: ['api.*.read_api', 'api.*.verify_key'], revokedAt: expect.any(Number), createdAt: expect.any(Number) });
    expect(key.startsWith(revoked.start)).toBe(true);
    expect(list.map((k: any) => k.createdAt)).toEqual([...list.map((k: any) => k.createdAt)].sort((a: number, b: number) => a - b));
    for (const k of list) {
      expect(Object.keys(k).sort()).toEqual(expect.arrayContaining(['createdAt', 'id', 'permissions', 'start']));
      expect(k.hash).toBeUndefined();
    }
    expect(JSON.stringify(res.body)).not.toContain(key);
    const stored = await h.keygate.services.storage.rootKeys.get(rootKeyId);
    expect(JSON.stringify(res.body)).not.toContain(stored!.hash);
  });

  test('root_key.*.read_root_key alone is enough', async () => {
    const reader = await h.rootKey(['root_key.*.read_root_key']);
    const res = await h.call('rootKeys.listRootKeys', {}, { rootKey: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(2);
  });
});
