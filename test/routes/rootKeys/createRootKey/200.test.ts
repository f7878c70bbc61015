import { describe, expect, test } from 'vitest';
import { ALL_PERMISSIONS } from '../../../../src/auth/permissions.js';
import { hashKey } from '../../../../src/keys/format.js';
import { useHarness } from '../../../support/harness.js';

describe('rootKeys.createRootKey → 200', () => {
  const h = useHarness();

  test('answers the new key once; it authenticates with exactly the granted permissions', async () => {
    const res = await h.call('rootKeys.createRootKey', { name: 'billing backend', permissions: ['api.*.create_api', 'api.*.read_api'] });
    expect(res.status).toBe(200);
    const { rootKeyId, key, start } = res.body.data;
    expect(rootKeyId).toMatch(/^rk_/);
    expect(key.startsWith(start)).toBe(true);
    expect(start.length).toBeLessThan(key.length / 2);

    // Only the hash is kept; the record never holds the plaintext.
    const stored = await h.keygate.services.storage.rootKeys.get(rootKeyId);
    expect(stored).toMatchObject({ name: 'billing backend', hash: hashKey(key), permissions: ['api.*.create_api', 'api.*.read_api'] });
    expect(JSON.stringify(stored)).not.toContain(key);

    expect((await h.call('apis.createApi', { name: 'made-by-new-key' }, { rootKey: key })).status).toBe(200);
    const denied = await h.call('identities.createIdentity', { externalId: 'nope' }, { rootKey: key });
    expect(denied.status).toBe(403);

    // Listing never shows it again.
    const listed = await h.call('rootKeys.listRootKeys', {});
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  test('a key may hand out what it holds: its own tuples, and single-resource tuples of actions it holds for every resource', async () => {
    const creator = await h.rootKey(['root_key.*.create_root_key', 'api.*.verify_key', 'ratelimit.rlns_1.limit']);
    const res = await h.call('rootKeys.createRootKey', { name: 'scoped', permissions: ['api.*.verify_key', 'api.api_123.verify_key', 'ratelimit.rlns_1.limit'] }, { rootKey: creator });
    expect(res.status).toBe(200);
    const stored = await h.keygate.services.storage.rootKeys.get(res.body.data.rootKeyId);
    expect([...stored!.permissions].sort()).toEqual(['api.*.verify_key', 'api.api_123.verify_key', 'ratelimit.rlns_1.limit']);
  });

  test('repeated permissions are stored once; an admin key can create another admin', async () => {
    const res = await h.call('rootKeys.createRootKey', { name: 'admin 2', permissions: [...ALL_PERMISSIONS, 'api.*.read_api'] });
    expect(res.status).toBe(200);
    const stored = await h.keygate.services.storage.rootKeys.get(res.body.data.rootKeyId);
    expect([...stored!.permissions].sort()).toEqual([...ALL_PERMISSIONS].sort());
  });
});
